import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { request, type Dispatcher } from 'undici';
import { REFERER } from './app.js';

export interface TimedAnswer {
  statusCode: number;
  body: string;
  /** The answer's Cache-Control header, when it sent one. */
  cacheControl?: string;
  /** Milliseconds from sending the request to the end of the answer. */
  ms: number;
}

/**
 * Whether an answer that took `ms` was held back at least `due` ms. Only the
 * lower bound: a busy machine makes any answer later, never earlier. How long
 * the slow-down meant to hold it is read from the slow-down itself (slowDownProbe).
 */
export const heldAtLeast = (ms: number, due: number) => ms >= due - 5;

/**
 * A test route, `GET /api/t/slow-down`, answering the delay the slow-down
 * gave this very request (0 when none) and whether it counted it at all.
 */
export const slowDownProbe: FastifyPluginAsync = async (app) => {
  app.get('/t/slow-down', async (request) => ({
    delay: request.slowDown?.delay ?? 0,
    counted: request.slowDown !== null,
  }));
};

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
export async function overHttp(
  app: FastifyInstance,
): Promise<(path: string, options?: TimedRequest) => Promise<TimedAnswer>> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return async (path, { method = 'GET', headers = {}, body } = {}) => {
    const start = performance.now();
    const res = await request(`${origin}${path}`, { method, headers: { ...REFERER, ...headers }, body });
    const text = await res.body.text();
    const cacheControl = res.headers['cache-control'];
    return {
      statusCode: res.statusCode,
      body: text,
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      ms: performance.now() - start,
    };
  };
}
