import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger } from 'pino';
import { fromAppRoot } from '../lib/app-root.js';
import { fastifyLoggingTo } from '../lib/logger.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const NO_STORE = 'no-store';

// A file extension starts with a letter (`.js`, `.png`, `.mp4`), so a navigation
// to an address such as `/ip/8.8.8.8` still gets the single-page app.
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/** Whether a GET to `url` is a single-page-app navigation: its last path segment has no file extension. */
export function isNavigation(url: string): boolean {
  return !FILE_EXTENSION.test(basename(url.split('?', 1)[0] ?? '/'));
}

/** Build tools put content-hashed files under assets/ with the hash after the last dash (`index-B2x9c1Qa.js`). */
export function isHashedAsset(path: string): boolean {
  return /(^|\/)assets\/[^/]*-[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/.test(path.replace(/\\/g, '/'));
}

export interface WebOptions {
  logger: Logger;
  /** Built frontend; empty means the placeholder page in web/public. */
  frontendDir: string;
  /** The API listener's application, ready; every /api request is handed to it. */
  api: FastifyInstance;
}

/** Whether a request target belongs to the API. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function frontendRoot(frontendDir: string): string {
  return frontendDir ? fromAppRoot(frontendDir) : fromAppRoot('web/public');
}

/**
 * The front listener: the built frontend with per-class caching, and every
 * /api request handed to the API application, which answers it exactly as on
 * its own listener (method, path, query, headers, body, status and streamed
 * bodies are the request's own). The hand-over happens in this process rather
 * than through a loopback HTTP proxy: the proxy cost four times the CPU of the
 * API request itself (see README, "Front listener").
 */
export async function buildWeb({ logger, frontendDir, api }: WebOptions): Promise<FastifyInstance> {
  const root = frontendRoot(frontendDir);
  const app = fastifyLoggingTo(logger, {
    serverFactory: (handler) =>
      createServer((req: IncomingMessage, res: ServerResponse) => {
        if (!isApiPath(req.url ?? '/')) return handler(req, res);
        // One trusted hop: keep the reverse proxy's X-Forwarded-For, else name the socket peer.
        if (!req.headers['x-forwarded-for'] && req.socket.remoteAddress) req.headers['x-forwarded-for'] = req.socket.remoteAddress;
        api.routing(req, res);
      }),
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
    const navigation = (request.method === 'GET' || request.method === 'HEAD') && isNavigation(request.url);
    if (navigation && existsSync(indexFile)) {
      return reply.header('cache-control', NO_STORE).sendFile('index.html');
    }
    return reply.code(404).header('cache-control', NO_STORE).type('text/plain').send('Not Found');
  });
  return app;
}
