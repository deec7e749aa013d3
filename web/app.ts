import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromAppRoot } from '../lib/app-root.js';
import { fastifyLoggingTo } from '../lib/logger.js';
import { createListenerServer } from '../lib/http-server.js';
import { isNavigation, NO_STORE } from './cache-class.js';
import { LiveSite } from './live-site.js';
import { NOT_BUILT_PAGE } from './not-built-page.js';
import { FRONT_HEADERS, securityHeaders } from './security-headers.js';
import { sendSiteFile } from './send-site-file.js';
import { lookup, type MemoryCaps } from './site-files.js';
import { plainHttpOrigins, scriptOrigins, SITE_SETTINGS_PATH, siteSettings } from './site-settings.js';
import { SiteSettings } from '../contract/site-settings.js';
import operations from '../operations/index.js';
import openapi from '../openapi/index.js';
import commandLine, { answerInListener, answerNotServed, faceRequest } from './command-line/index.js';
import speedRoutes from './speed/index.js';
import type { Shared } from '../composition.js';

/** Where `npm run build` writes the site (Vite's output, then its .br and .gz variants). */
export const BUILT_SITE_DIR = 'dist/site';

export interface WebOptions {
  /** The process's shared pieces (composition.ts): settings, logger, readiness, metrics, Redis, limiter, databases. */
  shared: Shared;
  /** The build folder to serve; empty means the site `npm run build` writes to dist/site. */
  frontendDir: string;
  /** The API listener's application, ready; every /api request is handed to it. */
  api: FastifyInstance;
  /** How much of the build to hold in memory (tests lower it). */
  memoryCaps?: MemoryCaps;
}

/** Whether a request target belongs to the API. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** The build folder served: FRONTEND_DIR, else dist/site, relative to the application root. */
export function siteRoot(frontendDir: string): string {
  return fromAppRoot(frontendDir || BUILT_SITE_DIR);
}

/**
 * The front listener: the built site from memory with per-class caching, the
 * command-line face for curl and scripts (web/command-line/), and
 * every /api request handed to the API application, which answers it exactly
 * as on its own listener (method, path, query, headers, body, status and
 * streamed bodies are the request's own). The hand-over happens in this
 * process rather than through a loopback HTTP proxy: the proxy cost four
 * times the CPU of the API request itself (docs/decisions/0001).
 */
export async function buildWeb({ shared, frontendDir, api, memoryCaps }: WebOptions): Promise<FastifyInstance> {
  const { config, logger, readiness, geoDatabases, globalLimiter } = shared;
  const settings = siteSettings(config, readiness);
  const headers = securityHeaders(plainHttpOrigins(settings), scriptOrigins(settings));
  const site = LiveSite.open(siteRoot(frontendDir), { logger, caps: memoryCaps, headers });
  const app = fastifyLoggingTo(logger, {
    serverFactory: (handler) =>
      createListenerServer(
        (req: IncomingMessage, res: ServerResponse) => {
          const url = req.url ?? '/';
          if (isApiPath(url)) {
            // One trusted hop: keep the reverse proxy's X-Forwarded-For, else name the socket peer.
            if (!req.headers['x-forwarded-for'] && req.socket.remoteAddress) {
              req.headers['x-forwarded-for'] = req.socket.remoteAddress;
            }
            // The API's answers keep their own headers; nosniff only stops a browser
            // from reading one as a type it did not declare (a JSON error as HTML).
            res.setHeader('x-content-type-options', 'nosniff');
            return api.routing(req, res);
          }
          // Speed device (web/README.md, "Serving"; docs/performance.md's
          // register): a file held in memory is answered here, before Fastify
          // builds a request and reply, which for such a file is most of the
          // cost. Everything else (navigations, streamed files, 404s) goes
          // through the route below, which answers files the same way.
          if (req.method === 'GET' || req.method === 'HEAD') {
            const file = lookup(site.current, url);
            // Of the site's files only `/` is also a path of the command-line face:
            // every other file is answered without asking who the client is.
            if (file?.inMemory && !isRoot(url)) return sendSiteFile(req, res, file);
            const face = faceRequest(url, req.headers);
            if (!face) {
              if (file?.inMemory) return sendSiteFile(req, res, file);
            } else if (!globalLimiter) {
              // Speed device (web/command-line/README.md, "Speed"; docs/performance.md's
              // register): with no limiter to count the request, the face's answer
              // is written here, the same as its route writes it.
              return answerInListener(req, res, face, geoDatabases, logger);
            }
          }
          // Set before Fastify sees the request, so its own answers (a 404, a
          // malformed URL's 400) carry them too; a file's precomputed headers
          // repeat them, which replaces rather than duplicates.
          for (const name in FRONT_HEADERS) res.setHeader(name, FRONT_HEADERS[name]!);
          return handler(req, res);
        },
        { listener: 'front', logger },
      ),
  });
  app.addHook('onClose', async () => site.close());

  // First, so the document sees every route registered after it, wherever.
  await app.register(openapi, { handsOver: api });
  await app.register(operations, { listener: 'front', readiness, metrics: shared.metrics });
  await app.register(speedRoutes, { config, redisLink: shared.redisLink });
  // Read on each request, as the loaded geo database can change while running;
  // `no-cache` so a change reaches open pages' next load.
  app.route({
    method: ['GET', 'HEAD'],
    url: SITE_SETTINGS_PATH,
    schema: { response: { 200: SiteSettings } },
    handler: (_request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('application/json; charset=utf-8')
        .send(siteSettings(config, readiness)),
  });
  const answerSite = async (request: FastifyRequest, reply: FastifyReply) => {
    // The listener opens while the site's files are read; a request for one waits for them.
    if (!site.read) await site.loaded;
    const current = site.current;
    const found = lookup(current, request.url);
    if (!found && isNavigation(request.url) && answerNotServed(request, reply)) return;
    const file = found ?? (isNavigation(request.url) ? current.fallback : undefined);
    if (file) {
      reply.hijack();
      return sendSiteFile(request.raw, reply.raw, file, (err) =>
        request.log.error({ err, url: request.url }, 'a site file could not be read'),
      );
    }
    if (isNavigation(request.url)) {
      return reply
        .code(503)
        .headers(headers.html)
        .header('cache-control', NO_STORE)
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_PAGE);
    }
    return notFound(reply);
  };
  await app.register(commandLine, {
    databases: geoDatabases,
    globalLimiter,
    watches: shared.watches,
    site: answerSite,
  });
  // The site's files and pages, not an interface: out of the OpenAPI document.
  app.route({ method: ['GET', 'HEAD'], url: '/*', schema: { hide: true }, handler: answerSite });
  app.setNotFoundHandler((_request, reply) => notFound(reply));
  return app;
}

/** Whether a request target is the site's root, `/`, with or without a query. */
function isRoot(url: string): boolean {
  return url.length === 1 || url.charCodeAt(1) === QUESTION_MARK;
}
const QUESTION_MARK = 0x3f;

function notFound(reply: FastifyReply) {
  return reply.code(404).header('cache-control', NO_STORE).type('text/plain').send('Not Found');
}
