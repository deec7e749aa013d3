import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GeoDatabases } from '../datasets/geo/databases.js';

/** The global limiter as a call: resolves when the request may go on, rejects with TooManyRequests past the limit. */
export type LimitCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * What the API application lends the front listener's command-line face
 * (web/command-line/): the one global limiter, so a client's requests to
 * either face count against one budget, and the local databases the geo
 * routes already keep loaded. Each part is filled in by the plugin that owns
 * it, inside the /api context, where the front listener cannot reach.
 */
export class LentToFront {
  /** Set by plugins/rate-limit.ts; absent while SECURITY_RATE_LIMIT is 0 (no limit). */
  globalLimit: LimitCheck | undefined;
  /** Set by routes/geo; absent when the geo routes are not registered. */
  geoDatabases: GeoDatabases | undefined;
}
