import type { FastifyPluginAsync } from 'fastify';
import { clientIp } from '../../lib/client-ip.js';
import { redactUrl } from '../../lib/logger.js';
import { ingestUrl, parseEnvelope, serialiseEnvelope, withVisitorIp } from './envelope.js';

export const TELEMETRY_BODY_LIMIT = 10 * 1024 * 1024;
export const TELEMETRY_LIMIT = 600;
export const TELEMETRY_WINDOW_MS = 20 * 60 * 1000;
const DSN_MISMATCH = 'DSN not allowed';
const RELAY_FAILED = 'Telemetry relay failed';

// Headers of the ingest answer that tell the browser SDK to back off.
const PASSED_HEADERS = ['retry-after', 'x-sentry-rate-limits'];

/** The ingest's answer when it is a JSON object; the status is what the SDK acts on, so anything else becomes `{}`. */
function jsonObject(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}


/**
 * POST /api/monitoring: a first-party tunnel for the frontend's telemetry
 * envelopes, mounted only when TELEMETRY_DSN_FRONTEND is set. It relays only
 * envelopes for that exact DSN, with the visitor's address written in.
 */
const telemetry: FastifyPluginAsync = async (app) => {
  const dsn = app.config.TELEMETRY_DSN_FRONTEND;
  if (!dsn) return;
  const target = ingestUrl(dsn);
  if (!target) {
    app.log.error('TELEMETRY_DSN_FRONTEND is not a DSN (https://key@host/project); the telemetry tunnel stays off');
    return;
  }

  // Browsers send envelopes as text/plain, as the SDK's own type, or with no
  // Content-Type at all; inside this plugin every body is taken as raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: TELEMETRY_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post(
    '/monitoring',
    { bodyLimit: TELEMETRY_BODY_LIMIT, onRequest: app.routeLimiter('telemetry', TELEMETRY_LIMIT, TELEMETRY_WINDOW_MS) },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // A MalformedEnvelope carries statusCode 400, which the error handler answers as it is.
      let envelope = parseEnvelope(body);
      if (envelope.header.dsn !== dsn) return reply.code(403).send({ error: DSN_MISMATCH });
      // A malformed header is skipped by the client-IP order, so it never lands in an event.
      const ip = clientIp(request);
      if (ip) envelope = withVisitorIp(envelope, ip);

      let res;
      try {
        res = await app.upstream.text(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-sentry-envelope' },
          body: serialiseEnvelope(envelope),
        });
      } catch (err) {
        request.log.warn({ err, url: redactUrl(target) }, 'telemetry relay failed');
        return reply.code(502).send({ error: RELAY_FAILED });
      }
      if (res.status >= 500) {
        request.log.warn({ status: res.status, url: redactUrl(target) }, 'telemetry relay failed');
        return reply.code(502).send({ error: RELAY_FAILED });
      }
      for (const name of PASSED_HEADERS) {
        const value = res.headers[name];
        if (typeof value === 'string') reply.header(name, value);
      }
      return reply.code(res.status).send(jsonObject(res.text));
    },
  );
};

export default telemetry;
