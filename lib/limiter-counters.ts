import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';
import type { Reply } from './redis-batch.js';
import type { RedisLink } from './redis-link.js';
import { WindowCounts } from './window-counts.js';

type Counted = { current: number; ttl: number };
type Done = (error: Error | null, result?: Counted) => void;

/**
 * One limiter's counters: in Redis, shared by every instance, while the link
 * is usable; in this process's memory otherwise (no REDIS_URL, or an outage).
 * It also notes the one request that takes a client over the limit (the
 * counter reaching max + 1): with a shared counter exactly one request across
 * all instances does, so the limiter logs each entry into the limited state
 * once, wherever it happens.
 */
export class LimiterCounters {
  private readonly local: WindowCounts;
  private readonly shared: RedisStore | undefined;
  private readonly entering = new Set<string>();

  constructor(
    name: string,
    private readonly link: RedisLink | undefined,
    timeWindow: number,
  ) {
    this.local = new WindowCounts(timeWindow);
    this.shared = link && new RedisStore(false, false, batchedClient(link), `netdiag:limit:${name}:`);
  }

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    const counted: Done = (error, result) => {
      if (result && result.current === max + 1) this.entering.add(key);
      done(error, result);
    };
    const inMemory = () => counted(null, this.local.incr(key, max));
    if (!this.shared || !this.link!.usable) return inMemory();
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) {
          this.link!.answered();
          return counted(null, result);
        }
        this.link!.failed(error);
        inMemory();
      },
      timeWindow,
      max,
    );
  }

  /** A limiter made from this one brings its own counters too. */
  child(options: object): LimiterCounters {
    return countersOf(options);
  }

  /** Whether this request took `key` over the limit; the limiter's onExceeded asks once per rejected request. */
  entered(key: string): boolean {
    return this.entering.delete(key);
  }
}

/**
 * The client @fastify/rate-limit's RedisStore is given. The store defines its
 * counting script on it, then calls the script by name with a callback: the
 * script is defined on the real client (so ioredis sends it by its SHA), and
 * each call goes out with the other requests' commands in the link's batch.
 */
function batchedClient(link: RedisLink): Redis {
  const client: Record<string, unknown> = {
    defineCommand(name: string, definition: { numberOfKeys: number; lua: string }) {
      link.client.defineCommand(name, definition);
      client[name] = (...args: unknown[]) => {
        const reply = args.pop() as Reply;
        link.batch.send(name, args, reply);
      };
    },
  };
  return client as unknown as Redis;
}

/**
 * The `store` option of @fastify/rate-limit: each limiter (`app.rateLimit`)
 * brings its own LimiterCounters in its options as `counters`, and the
 * library's per-limiter `child()` hands them back.
 */
export class NamedCounterStore {
  incr(_key: string, done: Done): void {
    done(new Error('every limiter brings its own counters'));
  }

  child(options: object): LimiterCounters {
    return countersOf(options);
  }
}

/** The counters a limiter's options bring (the library merges them into the options it hands `child()`). */
function countersOf(options: object): LimiterCounters {
  const counters: unknown = Reflect.get(options, 'counters');
  if (!(counters instanceof LimiterCounters)) throw new Error('a limiter was created without its counters');
  return counters;
}
