import type { BenchCase } from '../scenario.js';
import { writeAsnSnapshots } from '../gen-as-rel.js';

/**
 * /api/asn-connectivity on a full-size generated snapshot (78,000 ASes,
 * 500,000 links) with local organisation names for every AS, so no request
 * reaches an upstream. In the generated hierarchy AS13335 gives a typical
 * multi-level answer: nine ASes over four levels, five of them Tier-1s.
 */
export const asnCases: BenchCase[] = [
  {
    name: 'asn-connectivity: 78k-AS / 500k-link snapshot, local names',
    listener: 'api',
    path: '/api/asn-connectivity?asn=13335',
    // Its own server: the generated snapshots stay out of the other cases' runs.
    env: { ASNDATA_AUTO_UPDATE: 'false' },
    prepare: async (dataDir) => {
      await writeAsnSnapshots(dataDir);
    },
  },
];
