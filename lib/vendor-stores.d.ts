// The counter stores @fastify/rate-limit and fastify-slow-down ship without
// type declarations; the limiters wrap them (plugins/limiter-counters.ts).

declare module '@fastify/rate-limit/store/LocalStore.js' {
  type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;
  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr(key: string, done: Done, timeWindow: number, max: number): void;
  }
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;
  export default class RedisStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string);
    incr(key: string, done: Done, timeWindow: number, max: number): void;
  }
}

declare module 'fastify-slow-down/lib/localStore.js' {
  export class LocalStore {
    constructor(timeWindowMs: number, cacheSize: number);
    incrementOnKey(key: string): { counter: number; ttl: number };
    getValue(key: string): { counter: number };
    decrementOnKey(key: string): void;
  }
}
