import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../fastify.config.js';
import { fromAppRoot } from '../../lib/app-root.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';
import type { RedisLink } from '../../lib/redis-link.js';
import { reportRedisUrl, reportSharingConfigured } from './configured.js';
import { KvReportStore } from './kv-store.js';
import type { LocalReportStore } from './local-store.js';
import { RedisReportStore } from './redis-store.js';
import type { ReportStore } from './store.js';

import type { Lifecycle } from '../../lib/lifecycle.js';
import type { Upstream } from '../../lib/upstream.js';
import type { Readiness } from '../../operations/readiness.js';

/** What choosing the store needs of the composition root (composition.ts). */
export interface StorePieces {
  config: Config;
  log: Logger;
  lifecycle: Lifecycle;
  upstream: Upstream;
  readiness: Readiness;
  /** The limiters' Redis (REDIS_URL), reused when the reports name the same. */
  redisLink: RedisLink | undefined;
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
async function localStore(pieces: StorePieces): Promise<LocalReportStore> {
  // Loaded only where used: the native database module is start-up time every other deployment would pay.
  const { LocalReportStore, StoreInUse } = await import('./local-store.js');
  const store = new LocalReportStore(join(fromAppRoot(pieces.config.DATA_DIR), 'reports'), {
    retryMaxMs: pieces.config.REPORT_STORE_RETRY_MAX_MS,
    log: pieces.log,
  });
  try {
    await store.open();
  } catch (err) {
    pieces.log.error(
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
  pieces.lifecycle.onStop('report store', () => store.close());
  const sweeps = new PeriodicCheck({
    id: 'expired-report-sweep',
    run: async () => {
      const removed = await store.sweep();
      if (removed > 0) pieces.log.info({ removed }, 'expired shared reports removed from the local report store');
    },
    firstAfterMs: 0,
    everyMs: SWEEP_EVERY_MS,
    onError: (err) =>
      pieces.log.warn({ reason: err.message }, 'expired shared reports could not be removed; next try in an hour'),
  });
  pieces.lifecycle.addStep({ phase: 'background', name: 'expired report sweep', run: async () => sweeps.start() });
  pieces.lifecycle.onStop('expired report sweep', () => sweeps.stop());
  return store;
}

/**
 * The link to the Redis reports live in: the limiters' own when
 * REPORT_REDIS_URL is empty or names the same server and database, else one of
 * their own, so a report flood cannot evict the counters nor the counters'
 * policy the reports (docs/scale-out.md).
 */
async function reportLink(pieces: StorePieces): Promise<RedisLink> {
  // loadConfig refuses REPORT_STORE=redis without either URL.
  const url = reportRedisUrl(pieces.config)!;
  if (pieces.redisLink && url === pieces.config.REDIS_URL) return pieces.redisLink;
  const { RedisLink, REPORTS_LINK } = await import('../../lib/redis-link.js');
  const link = new RedisLink(url, pieces.log, REPORTS_LINK);
  pieces.lifecycle.onStop('reports Redis link', () => link.close());
  const { watchRedis } = await import('../../lib/redis-policy.js');
  watchRedis(pieces, link, 'reports');
  return link;
}

async function chooseStore(pieces: StorePieces): Promise<ReportStore | undefined> {
  switch (pieces.config.REPORT_STORE) {
    case 'kv':
      return reportSharingConfigured(pieces.config) ? new KvReportStore(pieces.upstream, pieces.config) : undefined;
    case 'redis':
      return new RedisReportStore(await reportLink(pieces));
    case 'local':
      return localStore(pieces);
  }
}

/**
 * The report store REPORT_STORE names, chosen once at start-up by the
 * composition root: shared reports and address watches live in it, and
 * /readyz reports on it. Undefined: the key-value store without its three settings.
 */
export async function chosenReportStore(pieces: StorePieces): Promise<ReportStore | undefined> {
  const store = await chooseStore(pieces);
  pieces.readiness.addReportStore(() => ({
    kind: pieces.config.REPORT_STORE,
    ready: store?.ready ?? false,
    ...store?.details,
  }));
  return store;
}
