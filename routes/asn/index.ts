import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AsnDatasets } from '../../datasets/asn/store.js';
import { fromAppRoot } from '../../lib/app-root.js';
import radar from './radar.js';
import history from './history.js';
import connectivity from './connectivity.js';
import { OrgNames } from './org-names.js';

/**
 * ASN and BGP: /api/asn-radar, /api/asn-history, /api/asn-connectivity, and
 * the CAIDA AS-relationship and AS-organisation snapshots the radar fallback,
 * the connectivity graph and the organisation names read.
 */
const asn: FastifyPluginAsyncTypebox = async (app) => {
  const datasets = new AsnDatasets({
    upstream: app.upstream,
    dataDir: fromAppRoot(app.config.DATA_DIR),
    logger: app.log,
    signal: app.lifecycle.stopping,
  });
  app.lifecycle.addStep({ phase: 'asn-datasets', name: 'asn-datasets', run: () => datasets.bootstrap() });
  app.lifecycle.onStop('asn-datasets', () => datasets.stop());
  if (app.config.ASNDATA_AUTO_UPDATE) {
    app.lifecycle.addStep({
      phase: 'background',
      name: 'asn-datasets-updater',
      run: async () => datasets.startAutoUpdate(),
    });
  }
  app.readiness.addDataset('asRelationships', () => datasets.status('relationships'));
  app.readiness.addDataset('asOrganisations', () => datasets.status('organisations'));
  await app.register(radar, { datasets });
  // One for both routes, so a name one of them looked up serves the other.
  const orgNames = new OrgNames({
    upstream: app.upstream,
    sourceApp: app.config.ROUTING_SOURCE_APP,
    datasets,
    failures: app.failuresOf('AS organisation names'),
    signal: app.lifecycle.stopping,
    failureMs: app.config.UPSTREAM_FAILURE_MEMORY_MS,
  });
  await app.register(history, { orgNames });
  await app.register(connectivity, { datasets, orgNames });
};

export default asn;
export { examples } from './examples.js';
