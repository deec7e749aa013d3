import fp from 'fastify-plugin';
import { SecretScrubber, secretValues } from '../lib/secrets.js';

/**
 * No configured secret leaves in an answer, whatever an upstream sent: every
 * JSON or text body (error messages and pass-through payloads included) has
 * them replaced on its way out. Streamed bodies (the map image) are not text.
 * Registered only when some secret is set.
 */
export default fp(
  async (app) => {
    const scrubber = new SecretScrubber(secretValues(app.config));
    if (scrubber.empty) return;
    app.addHook('onSend', (_request, _reply, payload, done) => {
      if (typeof payload === 'string') return done(null, scrubber.scrub(payload));
      if (Buffer.isBuffer(payload)) return done(null, Buffer.from(scrubber.scrub(payload.toString('latin1')), 'latin1'));
      done(null, payload);
    });
  },
  { name: 'secret-scrub' },
);
