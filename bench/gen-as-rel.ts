import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';

/**
 * Synthetic CAIDA-shaped snapshots the size of real ones, for the benchmark
 * and bench/asn-load.ts: about 78,000 ASes and 500,000 links in serial-2
 * format, with a Tier-1 clique at the top, transit bought preferentially from
 * the largest networks (heavy-tailed customer cones) and a peering mesh.
 * Deterministic: the same arguments always give the same bytes.
 */

export const TIER1 = [174, 701, 1299, 2914, 3257, 3320, 3356, 3491, 5511, 6453, 6461, 6762, 6830, 7018, 12956];
// Well-known ASNs always present, so benchmarks can ask for them by number;
// the later in this list, the later the AS joins and the deeper its graph.
export const WELL_KNOWN = [13335, 15169, 16509, 8075, 32934];
export const DEFAULT_AS_COUNT = 78_000;
const LINKS_PER_AS = 6.4;

/** mulberry32: small, fast, and good enough to shape a synthetic topology. */
function prng(seed: number): () => number {
  let a = seed >>> 0 || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SyntheticTopology {
  /** ASNs, Tier-1s first, then in the order they joined (earlier = larger). */
  asns: number[];
  text: string;
}

export function generateAsRel(asCount = DEFAULT_AS_COUNT, seed = 1): SyntheticTopology {
  const rand = prng(seed);
  const asns = [...TIER1];
  const used = new Set([...TIER1, ...WELL_KNOWN]);
  while (asns.length < asCount - WELL_KNOWN.length) {
    // Mostly 16-bit ASNs, a fifth from the 32-bit range, as in real tables.
    const asn = rand() < 0.8 ? 1 + Math.floor(rand() * 64_000) : 131_072 + Math.floor(rand() * 270_000);
    if (!used.has(asn)) {
      used.add(asn);
      asns.push(asn);
    }
  }
  // The well-known ASNs join at spread positions, from a large early network
  // to a late stub, so benchmarks can ask for graphs of different depths.
  WELL_KNOWN.forEach((asn, k) => asns.splice(Math.floor(((k + 1) * asCount) / (WELL_KNOWN.length + 1)), 0, asn));
  const lines = [
    '# source:topology|BGP|synthetic|bench/gen-as-rel.ts',
    '# types: -1 provider-to-customer, 0 peer-to-peer',
  ];
  let links = 0;
  for (let i = 0; i < TIER1.length; i++) {
    for (let j = i + 1; j < TIER1.length; j++) {
      lines.push(`${TIER1[i]}|${TIER1[j]}|0|bgp`);
      links++;
    }
  }
  for (let i = TIER1.length; i < asns.length; i++) {
    const providers = 1 + Math.floor(rand() * rand() * 4);
    const picked = new Set<number>();
    for (let k = 0; k < providers; k++) {
      const j = Math.floor(Math.pow(rand(), 2.2) * i);
      if (picked.has(j)) continue;
      picked.add(j);
      lines.push(`${asns[j]}|${asns[i]}|-1|bgp`);
      links++;
    }
  }
  const target = Math.round(asCount * LINKS_PER_AS);
  while (links < target) {
    const a = asns[Math.floor(Math.pow(rand(), 1.5) * asns.length)]!;
    const b = asns[Math.floor(rand() * asns.length)]!;
    if (a === b) continue;
    lines.push(`${a}|${b}|0|mlp`);
    links++;
  }
  return { asns, text: lines.join('\n') + '\n' };
}

const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'NL', 'BR', 'IN', 'JP', 'CN', 'RU', 'AU', 'CA', 'SE', 'SG', 'ZA'];

/** An as-org2info file naming every AS: one organisation per three ASes. */
export function generateAsOrg(asns: readonly number[]): string {
  const orgCount = Math.ceil(asns.length / 3);
  const lines = ['# name: AS Org', '# format:org_id|changed|org_name|country|source'];
  for (let o = 0; o < orgCount; o++) {
    lines.push(`ORG-SYN${o}-RIPE|20260101|Synthetic Networks ${o}|${COUNTRIES[o % COUNTRIES.length]}|RIPE`);
  }
  lines.push('# format:aut|changed|aut_name|org_id|opaque_id|source');
  asns.forEach((asn, i) => lines.push(`${asn}|20260101|SYN-AS${asn}|ORG-SYN${i % orgCount}-RIPE|opaque${i}|RIPE`));
  return lines.join('\n') + '\n';
}

/** Writes both snapshots where the server keeps them (DATA_DIR/asn), as if downloaded; returns the AS count. */
export async function writeAsnSnapshots(dataDir: string, asCount = DEFAULT_AS_COUNT, seed = 1): Promise<number> {
  const topology = generateAsRel(asCount, seed);
  const dir = join(dataDir, 'asn');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'as-rel2.txt'), topology.text);
  await writeFile(join(dir, 'as-org2info.txt'), generateAsOrg(topology.asns));
  return topology.asns.length;
}

// Usage: node --import tsx bench/gen-as-rel.ts OUT_FILE [AS_COUNT] [SEED]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [out, count, seed] = process.argv.slice(2);
  const log = pino();
  if (!out) {
    log.error('usage: node --import tsx bench/gen-as-rel.ts OUT_FILE [AS_COUNT] [SEED]');
    process.exitCode = 2;
  } else {
    const topology = generateAsRel(Number(count ?? DEFAULT_AS_COUNT), Number(seed ?? 1));
    await writeFile(out, topology.text);
    log.info({ out, ases: topology.asns.length }, 'synthetic AS-relationship snapshot written');
  }
}
