import fp from 'fastify-plugin';
import clientIp from './client-ip.js';
import requestLog from './request-log.js';
import rateLimit, { type RateLimitPluginOptions } from './rate-limit.js';
import slowDown from './slow-down.js';
import cacheControl from './cache-control.js';
import jsonBody from './json-body.js';
import refererGate from './referer-gate.js';
import guards from './guards.js';
import failureLog from './failure-log.js';
import errors from './errors.js';
import secretScrub from './secret-scrub.js';
import loadShedding from './load-shedding.js';

/**
 * The global behaviour of every /api route, registered once, in the spec's
 * mount order. The JSON body limit is the server's bodyLimit (see app.ts);
 * Fastify parses bodies after onRequest, so the gate's preValidation hook runs
 * after the limiters, the parsing and the no-store default, as the spec orders.
 */
export default fp<RateLimitPluginOptions>(
  async (app, { globalLimiter }) => {
    await app.register(clientIp);
    if (app.config.LOG_HTTP) await app.register(requestLog);
    await app.register(rateLimit, { globalLimiter });
    await app.register(slowDown);
    await app.register(jsonBody);
    await app.register(cacheControl);
    await app.register(refererGate);
    await app.register(guards);
    await app.register(failureLog);
    await app.register(errors);
    await app.register(secretScrub);
    // After the spec's chain, so its order stays as written; still an onRequest
    // hook, so a refused request is never parsed, gated or handled.
    if (app.config.LOAD_SHEDDING) await app.register(loadShedding);
  },
  { name: 'global-plugins' },
);
