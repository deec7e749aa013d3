import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fromAppRoot } from '../../lib/app-root.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';
import type { RedisLink } from '../../lib/redis-link.js';
import { reportRedisUrl, reportSharingConfigured } from './configured.js';
import { KvReportStore } from './kv-store.js';
import type { LocalReportStore } from './local-store.js';
import { RedisReportStore } from './redis-store.js';
import type { ReportStore } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where shared reports live (REPORT_STORE); undefined: the key-value store without its three settings. */
    reportStore: ReportStore | undefined;
  }
}

/** How often expired reports are removed from the local store, beyond their removal when read. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The local store in DATA_DIR/reports, opened (and repaired) now, swept at
 * start-up and then hourly, closed at shutdown. A store that cannot open (a
 * DATA_DIR the service may not write, another process holding the folder)
 * is logged once with what to do, and sharing reads as off; the rest of the
 * service runs on. A full disk is not that: the store logs its outage and
 * retries by itself.
 */
async function localStore(app: FastifyInstance): Promise<LocalReportStore> {
  // Loaded only where used: the native database module is start-up time every other deployment would pay.
  const { LocalReportStore, StoreInUse } = await import('./local-store.js');
  const store = new LocalReportStore(join(fromAppRoot(app.config.DATA_DIR), 'reports'), {
    retryMaxMs: app.config.REPORT_STORE_RETRY_MAX_MS,
    log: app.log,
  });
  try {
    await store.open();
  } catch (err) {
    app.log.error(
      { dir: store.dir, reason: (err as Error).message },
      err instanceof StoreInUse
        ? 'REPORT_STORE=local: the reports folder is in use by another process (a second instance on the same ' +
            'DATA_DIR?), so sharing is off here; give each instance its own DATA_DIR, or share reports through ' +
            'REPORT_STORE=redis, and restart'
        : 'REPORT_STORE=local: the report store cannot open, so sharing is off; make DATA_DIR writable, ' +
            'or move a damaged reports folder aside, and restart',
    );
    return store;
  }
  app.lifecycle.onStop('report store', () => store.close());
  const sweeps = new PeriodicCheck({
    id: 'expired-report-sweep',
    run: async () => {
      const removed = await store.sweep();
      if (removed > 0) app.log.info({ removed }, 'expired shared reports removed from the local report store');
    },
    firstAfterMs: 0,
    everyMs: SWEEP_EVERY_MS,
    onError: (err) =>
      app.log.warn({ reason: err.message }, 'expired shared reports could not be removed; next try in an hour'),
  });
  app.lifecycle.addStep({ phase: 'background', name: 'expired report sweep', run: async () => sweeps.start() });
  app.lifecycle.onStop('expired report sweep', () => sweeps.stop());
  return store;
}

/**
 * The link to the Redis reports live in: the limiters' own when
 * REPORT_REDIS_URL is empty or names the same server and database, else one of
 * their own, so a report flood cannot evict the counters nor the counters'
 * policy the reports (docs/scale-out.md).
 */
async function reportLink(app: FastifyInstance): Promise<RedisLink> {
  // loadConfig refuses REPORT_STORE=redis without either URL.
  const url = reportRedisUrl(app.config)!;
  if (app.redisLink && url === app.config.REDIS_URL) return app.redisLink;
  const { RedisLink, REPORTS_LINK } = await import('../../lib/redis-link.js');
  const link = new RedisLink(url, app.log, REPORTS_LINK);
  app.addHook('onClose', () => link.close());
  const { watchRedis } = await import('../../lib/redis-policy.js');
  watchRedis(app, link, 'reports');
  return link;
}

async function chooseStore(app: FastifyInstance): Promise<ReportStore | undefined> {
  switch (app.config.REPORT_STORE) {
    case 'kv':
      return reportSharingConfigured(app.config) ? new KvReportStore(app.upstream, app.config) : undefined;
    case 'redis':
      return new RedisReportStore(await reportLink(app));
    case 'local':
      return localStore(app);
  }
}

/** Decorates the app with the report store REPORT_STORE names, chosen once at start-up. */
export default fp(
  async (app) => {
    const store = await chooseStore(app);
    app.decorate('reportStore', store);
    app.readiness.addReportStore(() => ({
      kind: app.config.REPORT_STORE,
      ready: store?.ready ?? false,
      ...store?.details,
    }));
  },
  { name: 'report-store' },
);
