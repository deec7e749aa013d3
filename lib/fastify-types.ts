import type { Config } from '../fastify.config.js';
import type { Lifecycle } from './lifecycle.js';
import type { Upstream } from './upstream.js';
import type { Readiness } from '../operations/readiness.js';
import type { AppMetrics } from '../operations/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    upstream: Upstream;
    lifecycle: Lifecycle;
    /** Listener and dataset state for /readyz; capabilities register their datasets' status here. */
    readiness: Readiness;
    /** Counters the service increments; a no-op unless METRICS=true. */
    metrics: AppMetrics;
  }
  interface FastifyContextConfig {
    /** Seconds a success may be cached publicly; unset means the no-store default stays. */
    cacheTtl?: number;
  }
}
