import type { Config } from '../fastify.config.js';
import type { Lifecycle } from './lifecycle.js';
import type { Upstream } from './upstream.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    upstream: Upstream;
    lifecycle: Lifecycle;
  }
  interface FastifyContextConfig {
    /** Seconds a success may be cached publicly; unset means the no-store default stays. */
    cacheTtl?: number;
  }
}
