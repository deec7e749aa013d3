import { LocalStore } from 'fastify-slow-down/lib/localStore.js';
import type { RedisLink } from './redis-link.js';

type Reply = [Error | null, unknown];

// The library's own default: clients counted at once in process memory.
const LOCAL_CLIENTS = 5000;

/**
 * What fastify-slow-down calls on the Redis client it is given: its counters
 * go to Redis while the link is usable and to a store in this process's memory
 * otherwise, so an outage costs the sharing but never fails a request (the
 * library would answer its error with a 500). The library names the commands;
 * only those it uses without skipFailedRequests/skipSuccessfulRequests (incr,
 * pttl, pexpire, quit) are answered.
 */
export function slowDownCounters(link: RedisLink, timeWindowMs: number) {
  const local = new LocalStore(timeWindowMs, LOCAL_CLIENTS);
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
        async exec(): Promise<Reply[]> {
          if (!link.usable) return fromMemory(key);
          try {
            const replies = await link.client.pipeline().incr(namespaced(key)).pttl(namespaced(key)).exec();
            const failure = replies?.find(([error]) => error)?.[0];
            if (!replies || failure) throw failure ?? new Error('Redis gave no reply');
            link.answered();
            return replies;
          } catch (error) {
            link.failed(error as Error);
            return fromMemory(key);
          }
        },
      };
      return chain;
    },
    // A key left without expiry is given one on its next request (the library checks each time).
    async pexpire(key: string, ms: number) {
      await link.client.pexpire(namespaced(key), ms).catch((error: Error) => link.failed(error));
    },
    // The link is closed once, by the plugin that opened it.
    async quit() {},
  };
}
