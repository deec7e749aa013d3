import type { Config } from '../fastify.config.js';
import type { Lifecycle } from './lifecycle.js';
import type { Upstream } from './upstream.js';
import type { SignInTokens } from './sign-in-tokens.js';
import type { Readiness } from '../operations/readiness.js';
import type { AppMetrics } from '../operations/metrics.js';
import type { RedisLink } from './redis-link.js';
import type { GeoDatabases } from '../datasets/geo/databases.js';
import type { ReportStore } from '../routes/report/store.js';
import type { Watches } from '../routes/watch/watches.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    upstream: Upstream;
    /** Checks a caller's sign-in token before a private route forwards it (OIDC_ISSUER). */
    signInTokens: SignInTokens;
    lifecycle: Lifecycle;
    /** Listener and dataset state for /readyz; capabilities register their datasets' status here. */
    readiness: Readiness;
    /** Counters the service increments; a no-op unless METRICS=true. */
    metrics: AppMetrics;
    /** The Redis the limiters share with other instances (REDIS_URL); undefined keeps every count in this process. */
    redisLink: RedisLink | undefined;
    /** The local city and ASN databases, which the command-line face reads too (composition.ts). */
    geoDatabases: GeoDatabases;
    /** Where shared reports and address watches live (REPORT_STORE); undefined: the key-value store without its settings. */
    reportStore: ReportStore | undefined;
    /** The address watches, which the command-line face records into too (composition.ts). */
    watches: Watches;
  }
  interface FastifyContextConfig {
    /** Seconds a success may be cached publicly; unset means the no-store default stays. */
    cacheTtl?: number;
  }
}
