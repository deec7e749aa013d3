import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { cfConnectingIp } from '../../lib/client-ip.js';
import { redactUrl } from '../../lib/logger.js';
import { UpstreamFailure } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { envelopeHeader, ingestUrl, parseEnvelope, serialiseEnvelope, withVisitorIp } from './envelope.js';

export const TELEMETRY_BODY_LIMIT = 10 * 1024 * 1024;
export const TELEMETRY_LIMIT = 600;
export const TELEMETRY_WINDOW_MS = 20 * 60 * 1000;
const DSN_MISMATCH = 'DSN not allowed';
const RELAY_FAILED = 'Relay failed';
const NOT_CONFIGURED = 'Tunnel not configured';
// The metrics' name for the ingest: its host comes from the DSN, a setting.
const INGEST_PROVIDER = 'telemetry';

// Headers of the ingest answer that tell the browser SDK to back off.
const PASSED_HEADERS = ['retry-after', 'x-sentry-rate-limits'];

/**
 * POST /api/monitoring: a first-party tunnel for the frontend's telemetry
 * envelopes, mounted only when TELEMETRY_DSN_FRONTEND is set. It relays only
 * envelopes for that exact DSN, with the visitor's address written in.
 */
const telemetry: FastifyPluginAsync = async (app) => {
  const dsn = app.config.TELEMETRY_DSN_FRONTEND;
  const target = dsn ? ingestUrl(dsn) : undefined;
  if (dsn && !target) {
    app.log.error('TELEMETRY_DSN_FRONTEND is not a DSN (https://key@host/project); the telemetry tunnel stays off');
  }
  if (!dsn || !target) {
    const notConfigured = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(404).send({ error: NOT_CONFIGURED });
    // Answered on arrival, before any body is read (whatever its type): with nothing to relay to, nothing needs taking in.
    // Fastify asks for a handler all the same.
    app.post('/monitoring', {
      schema: { summary: 'The telemetry tunnel, not mounted on this server: 404', response: { 404: ErrorBody } },
      onRequest: notConfigured,
      handler: notConfigured,
    });
    return;
  }

  // Browsers send envelopes as text/plain, as the SDK's own type, or with no
  // Content-Type at all; inside this plugin every body is taken as raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: TELEMETRY_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/monitoring',
    {
      bodyLimit: TELEMETRY_BODY_LIMIT,
      onRequest: app.routeLimiter('telemetry', TELEMETRY_LIMIT, TELEMETRY_WINDOW_MS),
      // Any other status is the ingest's own, with its body as it came (or the limiter's 429).
      schema: {
        summary: "The telemetry tunnel: the site's error reports relayed to their ingest",
        response: { 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 502: ErrorBody, default: Type.Unknown() },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // parseEnvelope's refusals carry their status (400, 413), which the error handler answers as it is.
      // The DSN is checked on the header line alone: an envelope for anyone else is not read further.
      if (envelopeHeader(body).header.dsn !== dsn) return reply.code(403).send({ error: DSN_MISMATCH });
      let envelope = parseEnvelope(body);
      // The spec: the visitor's real address "from CF-Connecting-IP, when present and valid"; the socket or a
      // proxy's X-Forwarded-For names a hop, not the visitor the telemetry is about, so nothing is written then.
      const ip = cfConnectingIp(request);
      if (ip) envelope = withVisitorIp(envelope, ip);

      let res;
      try {
        res = await app.upstream.text(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-sentry-envelope' },
          body: serialiseEnvelope(envelope),
          provider: INGEST_PROVIDER,
        });
      } catch (err) {
        throw new UpstreamFailure({ status: 502, error: RELAY_FAILED }, 'telemetry relay failed', {
          err,
          url: redactUrl(target),
        });
      }
      if (res.status >= 500) {
        throw new UpstreamFailure({ status: 502, error: RELAY_FAILED }, 'telemetry relay failed', {
          status: res.status,
          url: redactUrl(target),
        });
      }
      for (const name of PASSED_HEADERS) {
        const value = res.headers[name];
        if (typeof value === 'string') reply.header(name, value);
      }
      const type = res.headers['content-type'];
      if (typeof type === 'string') reply.type(type);
      return reply.code(res.status).send(res.text);
    },
  );
};

export default telemetry;
export { examples, upstreamAnswers } from './examples.js';
