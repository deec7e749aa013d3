import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { request, type Dispatcher } from 'undici';
import { REFERER } from './app.js';

export interface TimedAnswer {
  statusCode: number;
  body: string;
  /** Milliseconds from sending the request to the end of the answer. */
  ms: number;
}

// A slow-down step is 400 ms; an answer within this of its due time was held back exactly as long as due.
const ON_TIME_MS = 300;

/** Whether an answer that took `ms` came when due: not before `due`, and well before the next 400 ms step. */
export const heldFor = (ms: number, due: number) => ms >= due - 5 && ms < due + ON_TIME_MS;

export interface TimedRequest {
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Starts `app` on a free loopback port and returns a timed client for it,
 * with the allowed Referer. For what inject() cannot show: the slow-down
 * answers an injected request at once, since its fake socket counts as closed.
 */
export async function overHttp(app: FastifyInstance): Promise<(path: string, options?: TimedRequest) => Promise<TimedAnswer>> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return async (path, { method = 'GET', headers = {}, body } = {}) => {
    const start = performance.now();
    const res = await request(`${origin}${path}`, { method, headers: { ...REFERER, ...headers }, body });
    const text = await res.body.text();
    return { statusCode: res.statusCode, body: text, ms: performance.now() - start };
  };
}
