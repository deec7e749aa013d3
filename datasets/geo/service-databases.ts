import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../fastify.config.js';
import { fromAppRoot } from '../../lib/app-root.js';
import type { Lifecycle } from '../../lib/lifecycle.js';
import type { Upstream } from '../../lib/upstream.js';
import type { Readiness } from '../../operations/readiness.js';
import { GeoDatabases } from './databases.js';

/** The start-up step that downloads what is missing, loads both databases and warms the timezone lookup. */
export const GEO_DATABASES_STEP = 'geo databases';

export interface ServiceDatabasesOptions {
  config: Config;
  upstream: Upstream;
  lifecycle: Lifecycle;
  readiness: Readiness;
  logger: FastifyBaseLogger;
  /** Databases made by the caller, who then drives them directly (the reload bench); by default made from the settings. */
  databases?: GeoDatabases;
}

/**
 * The local geolocation databases as the service runs them: loaded by a
 * start-up step, then watched and kept up to date, stopped at shutdown and
 * shown on /readyz. One set for the process: the geo routes and the
 * command-line face read the same readers.
 */
export function serviceDatabases({
  config,
  upstream,
  lifecycle,
  readiness,
  logger,
  databases = new GeoDatabases({
    dir: join(fromAppRoot(config.DATA_DIR), 'geo'),
    upstream,
    provider: config.GEODB_PROVIDER,
    accountId: config.GEODB_ACCOUNT_ID,
    licenseKey: config.GEODB_LICENSE_KEY,
    logger,
    signal: lifecycle.stopping,
  }),
}: ServiceDatabasesOptions): GeoDatabases {
  lifecycle.addStep({
    phase: 'geo-databases',
    name: GEO_DATABASES_STEP,
    run: () => databases.bootstrap(),
  });
  lifecycle.addStep({
    phase: 'background',
    name: 'geo database watcher and updater',
    run: async () => {
      databases.startWatcher();
      if (config.GEODB_AUTO_UPDATE) databases.startAutoUpdate();
    },
  });
  lifecycle.onStop('geo databases', () => databases.stop());
  readiness.addDataset('geoCity', () => databases.status('city'));
  readiness.addDataset('geoAsn', () => databases.status('asn'));
  return databases;
}
