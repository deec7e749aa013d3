import fp from 'fastify-plugin';
import { CLIENT_IP } from '../lib/client-ip.js';

/**
 * Gives every request the slot clientIp remembers its answer in. Declared as
 * a decoration so each request object is built with it, instead of growing a
 * property on the hot path.
 */
export default fp(
  async (app) => {
    app.decorateRequest(CLIENT_IP, '');
  },
  { name: 'client-ip' },
);
