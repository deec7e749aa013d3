import fp from 'fastify-plugin';
import { CLIENT_IP, LIMITER_KEY } from '../lib/client-ip.js';

/**
 * Gives every request the slots clientIp and limiterKey remember their
 * answers in. Declared as decorations so each request object is built with
 * them, instead of growing properties on the hot path.
 */
export default fp(
  async (app) => {
    app.decorateRequest(CLIENT_IP, '');
    app.decorateRequest(LIMITER_KEY, '');
  },
  { name: 'client-ip' },
);
