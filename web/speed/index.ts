import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Config } from '../../fastify.config.js';
import { clientIp, limiterKey } from '../../lib/client-ip.js';
import { LimiterCounters } from '../../lib/limiter-counters.js';
import type { RedisLink } from '../../lib/redis-link.js';
import { ACCESS_DENIED, allowedHostnames, NO_REFERER, refererMatcher } from '../../plugins/referer-gate.js';
import { ClientBudget } from './client-budget.js';
import { sendRandomBytes } from './random-bytes.js';
import { countUpload } from './upload-sink.js';

export const SPEED_DOWN_PATH = '/speed/down';
export const SPEED_UP_PATH = '/speed/up';

/** The window of the per-client request and byte limits: the API limiter's own 20 minutes. */
export const SPEED_WINDOW_MS = 20 * 60 * 1000;

const SpeedError = Type.Object({ error: Type.String() });
const DownQuery = Type.Object({ bytes: Type.Integer({ minimum: 0 }) });
const Uploaded = Type.Object({ bytes: Type.Integer({ minimum: 0 }) });
const ERRORS = { 400: SpeedError, 403: SpeedError, 413: SpeedError, 429: SpeedError, 503: SpeedError };

export interface SpeedOptions {
  config: Config;
  /** The process's Redis link (composition.ts), so the request limit is one across instances when REDIS_URL is set. */
  redisLink: RedisLink | undefined;
}

/**
 * The speed test's own endpoints on the front listener: incompressible bytes
 * to download and a sink to upload to, never touching disk. Gated like /api
 * (the Referer gate, a per-client request limit keyed like every limiter)
 * and bounded per request, per client and window (bytes), per client at
 * once and for all clients at once (transfers), so one heavy client cannot
 * take the others' share and the speed test never takes the site's
 * connections. A transfer that moves nothing for the stall timeout (a client
 * that stops reading or sending) is ended, giving its slot back.
 */
export default async function speedRoutes(app: FastifyInstance, { config, redisLink }: SpeedOptions): Promise<void> {
  const downCap = config.SPEEDTEST_DOWNLOAD_MAX_BYTES;
  const upCap = config.SPEEDTEST_UPLOAD_MAX_BYTES;
  const allowed = refererMatcher(allowedHostnames(config.ALLOWED_DOMAINS));
  const budget = new ClientBudget(
    config.SPEEDTEST_CLIENT_BYTES,
    SPEED_WINDOW_MS,
    config.SPEEDTEST_CLIENT_TRANSFERS,
    config.SPEEDTEST_TRANSFERS,
  );
  const stallMs = config.SPEEDTEST_STALL_TIMEOUT_MS;
  const allowanceUsed = `Your address has used its speed test allowance (${config.SPEEDTEST_CLIENT_BYTES} bytes per 20 minutes); try again later`;
  const max = config.SPEEDTEST_RATE_LIMIT;
  const counters = max > 0 ? new LimiterCounters('speed', redisLink, SPEED_WINDOW_MS) : undefined;

  const refuse = (reply: FastifyReply, status: number, error: string, retryAfterMs?: number) => {
    // An upload's body is left unread when it is refused: closing is cheaper than draining it.
    if (reply.request.method === 'POST') reply.header('connection', 'close');
    if (retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    return reply.code(status).header('cache-control', 'no-store').send({ error });
  };

  // The body is the measurement: read by the upload handler as it arrives, never parsed or buffered.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation) return refuse(reply, 400, `bytes must be a whole number from 0 to ${downCap}`);
    if (err.statusCode && err.statusCode < 500) return refuse(reply, err.statusCode, err.message);
    request.log.error({ err, url: request.url }, 'speed test request failed');
    return refuse(reply, 500, 'The speed test failed on the server');
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (!counters) return done();
    const key = limiterKey(request);
    counters.incr(
      key,
      (_error, result) => {
        if (!result || result.current <= max) return done();
        if (counters.entered(key)) {
          request.log.warn({ ip: clientIp(request), key, url: request.url }, 'client entered the speed limiter');
        }
        void refuse(reply, 429, 'Too many speed test requests from your address; try again later', result.ttl);
      },
      SPEED_WINDOW_MS,
      max,
    );
  });

  app.addHook('preValidation', (request, reply, done) => {
    const referer = request.headers.referer;
    if (!referer) return void refuse(reply, 403, NO_REFERER);
    if (!allowed(referer)) return void refuse(reply, 403, ACCESS_DENIED);
    done();
  });

  /** A transfer slot and `bytes` of the client's window, or the refusal already sent. */
  const admit = (request: FastifyRequest, reply: FastifyReply, bytes: number): (() => void) | undefined => {
    const key = limiterKey(request);
    const slot = budget.begin(key);
    if (!slot.ok) {
      if (slot.full === 'client') {
        void refuse(reply, 429, 'Too many speed test transfers at once from your address', 1000);
      } else {
        // A slot frees when a transfer ends, at the latest two stall timeouts after it stops moving.
        void refuse(reply, 503, 'The speed test is busy with other visitors; try again in a moment', 2 * stallMs);
      }
      return undefined;
    }
    const charged = budget.charge(key, bytes);
    if (!charged.ok) {
      slot.end();
      void refuse(reply, 429, allowanceUsed, charged.retryAfterMs);
      return undefined;
    }
    return slot.end;
  };

  app.get<{ Querystring: Static<typeof DownQuery> }>(
    SPEED_DOWN_PATH,
    { schema: { querystring: DownQuery, response: ERRORS } },
    (request, reply) => {
      const bytes = request.query.bytes;
      if (bytes > downCap) return refuse(reply, 400, `bytes must be a whole number from 0 to ${downCap}`);
      const end = admit(request, reply, bytes);
      if (!end) return reply;
      reply.hijack();
      const res = reply.raw;
      res.once('close', end);
      // The socket's idle timer, which Node already moves on every write: nothing added per slice.
      res.setTimeout(stallMs, () => res.destroy());
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': bytes,
        'cache-control': 'no-store',
        'timing-allow-origin': '*',
      });
      sendRandomBytes(res, bytes);
      return reply;
    },
  );

  app.post(SPEED_UP_PATH, { schema: { response: { 200: Uploaded, ...ERRORS } } }, async (request, reply) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > upCap) return refuse(reply, 413, `An upload may be at most ${upCap} bytes`);
    const end = admit(request, reply, declared);
    if (!end) return reply;
    request.raw.setTimeout(stallMs, () => request.raw.destroy());
    try {
      // A body sent without a length is charged as it arrives, so it stops at the client's allowance.
      const key = limiterKey(request);
      let retryAfterMs = 0;
      const charge = (bytes: number) => {
        const verdict = budget.charge(key, bytes);
        if (!verdict.ok) retryAfterMs = verdict.retryAfterMs;
        return verdict.ok;
      };
      const received = await countUpload(request.raw, upCap, declared ? undefined : charge);
      if (!received.ok) {
        if (received.reason === 'too-large') return refuse(reply, 413, `An upload may be at most ${upCap} bytes`);
        if (received.reason === 'over-budget') return refuse(reply, 429, allowanceUsed, retryAfterMs);
        // The client went away or stalled: there is no one to answer.
        return reply.hijack();
      }
      // Written straight to the socket in one write: Fastify's corked writev of
      // the same few bytes cost about as much CPU as counting a megabyte.
      reply.hijack();
      const answer = JSON.stringify({ bytes: received.bytes });
      reply.raw.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(answer),
        'cache-control': 'no-store',
        'timing-allow-origin': '*',
      });
      reply.raw.end(answer);
      return reply;
    } finally {
      end();
    }
  });
}
