import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Config } from './fastify.config.js';
import { Lifecycle } from './lib/lifecycle.js';
import { Upstream } from './lib/upstream.js';
import { SignInTokens } from './lib/sign-in-tokens.js';
import { GlobalLimiter } from './lib/global-limiter.js';
import type { RedisLink } from './lib/redis-link.js';
import { Readiness } from './operations/readiness.js';
import type { AppMetrics } from './operations/metrics.js';
import { NO_METRICS } from './operations/no-metrics.js';
import type { GeoDatabases } from './datasets/geo/databases.js';
import { serviceDatabases } from './datasets/geo/service-databases.js';
import { reportRedisUrl } from './routes/report/configured.js';
import { chosenReportStore } from './routes/report/chosen-store.js';
import type { ReportStore } from './routes/report/store.js';
import { Notifier } from './routes/watch/notifier.js';
import { Watches } from './routes/watch/watches.js';

export interface SharedOptions {
  config: Config;
  logger: Logger;
  /** Replaces undici's global dispatcher (a MockAgent in unit tests). */
  dispatcher?: Dispatcher;
  /** Geolocation databases made by the caller, who then drives them directly (the reload bench). */
  geoDatabases?: GeoDatabases;
}

/** What both listeners share, built once per process by composeShared(). */
export interface Shared {
  config: Config;
  logger: Logger;
  /** Listener and dataset state for /readyz; capabilities register their datasets' status here. */
  readiness: Readiness;
  /** Counters the service increments; a no-op unless METRICS=true. */
  metrics: AppMetrics;
  /** The one outbound HTTP client, with UPSTREAM_OVERRIDE_ORIGIN's redirection. */
  upstream: Upstream;
  /** Checks a caller's sign-in token before a private route forwards it (OIDC_ISSUER). */
  signInTokens: SignInTokens;
  lifecycle: Lifecycle;
  /** The Redis the limiters share with other instances (REDIS_URL); undefined keeps every count in this process. */
  redisLink: RedisLink | undefined;
  /** The local city and ASN databases: the geo routes and the command-line face read them. */
  geoDatabases: GeoDatabases;
  /** One budget per client for /api and the command-line face; undefined while SECURITY_RATE_LIMIT is 0. */
  globalLimiter: GlobalLimiter | undefined;
  /** Where shared reports and address watches live (REPORT_STORE); undefined: the key-value store without its settings. */
  reportStore: ReportStore | undefined;
  /** The address watches: read and changed under /api/watch, recorded by `curl <site>/watch/<token>`. */
  watches: Watches;
  /** Stops the start-up steps and schedulers, then closes the outbound clients; after both listeners are closed. */
  close(): Promise<void>;
}

/**
 * The composition root: every piece both listeners use is built here, once,
 * and handed to buildApi() and buildWeb() explicitly, so neither listener
 * reaches into the other's Fastify contexts for it.
 */
export async function composeShared({ config, logger, dispatcher, geoDatabases }: SharedOptions): Promise<Shared> {
  const readiness = new Readiness();
  // prom-client is loaded only when METRICS is on.
  const prometheus = config.METRICS ? new (await import('./operations/metrics.js')).Metrics(readiness) : undefined;
  const metrics = prometheus ?? NO_METRICS;
  const common = {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    siteUrl: config.SITE_URL,
    dispatcher,
    logger,
    observe: prometheus?.observeUpstream,
    failureMemoryMs: config.UPSTREAM_FAILURE_MEMORY_MS,
  };
  const upstream = new Upstream({
    ...common,
    overrideOrigin: config.UPSTREAM_OVERRIDE_ORIGIN,
    dnsServer: config.DNS_OVERRIDE_SERVER,
  });
  const signInTokens = new SignInTokens({
    issuer: config.OIDC_ISSUER,
    audience: config.OIDC_CLIENT_ID,
    // The issuer is reached where OIDC_ISSUER says, never through UPSTREAM_OVERRIDE_ORIGIN: the
    // browser signs in there, and the tokens name it; a test or the demo runs a real provider.
    upstream: new Upstream({ ...common, overrideOrigin: '' }),
  });
  const lifecycle = new Lifecycle(logger);
  readiness.addStartUp(() => lifecycle.loading);
  const redisLink = await redisLinkFor(config, logger, readiness);
  const globalLimiter = config.SECURITY_RATE_LIMIT > 0 ? new GlobalLimiter(config, redisLink, metrics) : undefined;
  const reportStore = await chosenReportStore({ config, log: logger, lifecycle, upstream, readiness, redisLink });
  const notifier = new Notifier(config, upstream.names);
  const watches = new Watches(
    reportStore,
    {
      ttlDays: config.WATCH_TTL_DAYS,
      maxEntries: config.WATCH_MAX_ENTRIES,
      maxPerSignIn: config.WATCH_MAX_PER_SIGN_IN,
    },
    notifier,
    logger,
  );
  return {
    config,
    logger,
    readiness,
    metrics,
    upstream,
    signInTokens,
    lifecycle,
    redisLink,
    geoDatabases: serviceDatabases({ config, upstream, lifecycle, readiness, logger, databases: geoDatabases }),
    globalLimiter,
    reportStore,
    watches,
    close: async () => {
      await lifecycle.stop();
      await notifier.close();
      await globalLimiter?.close();
      await redisLink?.close();
      await upstream.close();
    },
  };
}

/** The limiters' Redis (REDIS_URL), watched for /readyz; the reports' too when REPORT_REDIS_URL names the same. */
async function redisLinkFor(config: Config, logger: Logger, readiness: Readiness): Promise<RedisLink | undefined> {
  const url = config.REDIS_URL;
  if (!url) return undefined;
  // Loaded only where Redis is used: the client's module graph is a tenth of the service's start-up.
  const link = new (await import('./lib/redis-link.js')).RedisLink(url, logger);
  const { watchRedis } = await import('./lib/redis-policy.js');
  watchRedis({ log: logger, readiness }, link, reportRedisUrl(config) === url ? 'limitsAndReports' : 'limits');
  return link;
}
