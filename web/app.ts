import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';
import type { Logger } from 'pino';
import { fromAppRoot } from '../lib/app-root.js';
import { fastifyLogOptions } from '../lib/logger.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
export const NO_STORE = 'no-store';
// The telemetry tunnel takes 10 MB; the front listener must not cut it short.
const PROXY_BODY_LIMIT = 11 * 1024 * 1024;

/** Build tools put content-hashed files under assets/ with the hash after the last dash (`index-B2x9c1Qa.js`). */
export function isHashedAsset(path: string): boolean {
  return /(^|\/)assets\/[^/]*-[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/.test(path.replace(/\\/g, '/'));
}

export interface WebOptions {
  logger: Logger;
  /** Built frontend; empty means the placeholder page in web/public. */
  frontendDir: string;
  /** Where the API listener answers, e.g. http://127.0.0.1:11966. */
  apiOrigin: string;
}

export function frontendRoot(frontendDir: string): string {
  return frontendDir ? fromAppRoot(frontendDir) : fromAppRoot('web/public');
}

/** The front listener: the built frontend with per-class caching, and /api forwarded to the API listener. */
export async function buildWeb({ logger, frontendDir, apiOrigin }: WebOptions): Promise<FastifyInstance> {
  const root = frontendRoot(frontendDir);
  const app = Fastify({ ...fastifyLogOptions(logger), bodyLimit: PROXY_BODY_LIMIT });

  await app.register(httpProxy, {
    upstream: apiOrigin,
    prefix: '/api',
    rewritePrefix: '/api',
    logLevel: 'warn',
    replyOptions: {
      // One trusted hop: keep the reverse proxy's X-Forwarded-For, else name the socket peer.
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-for': headers['x-forwarded-for'] ?? request.socket.remoteAddress ?? '',
      }),
    },
  });

  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', isHashedAsset(path) ? IMMUTABLE : REVALIDATE);
    },
  });

  const indexFile = join(root, 'index.html');
  app.setNotFoundHandler((request, reply) => {
    const last = basename(request.url.split('?', 1)[0] ?? '/');
    const navigation = (request.method === 'GET' || request.method === 'HEAD') && !last.includes('.');
    if (navigation && existsSync(indexFile)) {
      return reply.header('cache-control', NO_STORE).sendFile('index.html');
    }
    return reply.code(404).header('cache-control', NO_STORE).type('text/plain').send('Not Found');
  });
  return app;
}
