import { LocalStore } from 'fastify-slow-down/lib/localStore.js';
import type { RedisLink } from './redis-link.js';

type Reply = [Error | null, unknown];

// The library's own default: clients counted at once in process memory.
const LOCAL_CLIENTS = 5000;

// The library's INCR and PTTL, and the PEXPIRE it sends when a key has no
// expiry, as one command: one reply per request instead of two, and a key is
// never left without an expiry between two commands.
const SCRIPT = 'slowDownCount';
const COUNT = `
  local counter = redis.call('INCR', KEYS[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl == -1 then
    ttl = tonumber(ARGV[1])
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
  return {counter, ttl}
`;

/**
 * What fastify-slow-down calls on the Redis client it is given: its counters
 * go to Redis while the link is usable and to a store in this process's memory
 * otherwise, so an outage costs the sharing but never fails a request (the
 * library would answer its error with a 500). The library names the commands;
 * only those it uses without skipFailedRequests/skipSuccessfulRequests are
 * answered: its incr-and-pttl pipeline, sent as one script in the link's batch
 * (which sets a missing expiry, so the library's pexpire is never needed), and quit.
 */
export function slowDownCounters(link: RedisLink, timeWindowMs: number) {
  const local = new LocalStore(timeWindowMs, LOCAL_CLIENTS);
  link.client.defineCommand(SCRIPT, { numberOfKeys: 1, lua: COUNT });
  const namespaced = (key: string) => `netdiag:${key}`;
  const fromMemory = (key: string): Reply[] => {
    const { counter, ttl } = local.incrementOnKey(key);
    return [
      [null, counter],
      [null, ttl],
    ];
  };

  return {
    pipeline() {
      let key = '';
      const chain = {
        incr(k: string) {
          key = k;
          return chain;
        },
        pttl() {
          return chain;
        },
        exec(): Promise<Reply[]> {
          if (!link.usable) return Promise.resolve(fromMemory(key));
          return new Promise((resolve) => {
            link.batch.send(SCRIPT, [namespaced(key), timeWindowMs], (error, result) => {
              if (error || !Array.isArray(result)) {
                link.failed(error ?? new Error('Redis gave no count'));
                return resolve(fromMemory(key));
              }
              link.answered();
              resolve([
                [null, result[0]],
                [null, result[1]],
              ]);
            });
          });
        },
      };
      return chain;
    },
    // The link is closed once, by the plugin that opened it.
    async quit() {},
  };
}
