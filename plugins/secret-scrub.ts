import fp from 'fastify-plugin';
import { SecretScrubber, secretValues } from '../lib/secrets.js';

const isText = (type: unknown) =>
  type === undefined || (typeof type === 'string' && /^(?:application\/json|text\/)/.test(type));

/**
 * No configured secret leaves in an answer, whatever an upstream sent: every
 * JSON or text body (error messages and pass-through payloads included) has
 * them replaced on its way out. Images and streams are not text and pass as they are.
 * Registered only when some secret is set.
 */
export default fp(
  async (app) => {
    const scrubber = new SecretScrubber(secretValues(app.config));
    if (scrubber.empty) return;
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!isText(reply.getHeader('content-type'))) return done(null, payload);
      if (typeof payload === 'string') return done(null, scrubber.scrub(payload));
      if (Buffer.isBuffer(payload)) {
        return done(null, Buffer.from(scrubber.scrub(payload.toString('latin1')), 'latin1'));
      }
      done(null, payload);
    });
  },
  { name: 'secret-scrub' },
);
