import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchCase } from '../scenario.js';
import { Double, Uint32, writeMmdb, type MmdbNetwork } from '../../test/support/mmdb-writer.js';

export const BENCH_NETWORKS = 500_000;
const DISTINCT_PLACES = 2_000;
// Consecutive /24s from 1.0.0.0 up; this address sits in the middle of them.
export const BENCH_IP = '4.20.30.40';

function place(i: number) {
  const names = (base: string) => ({
    de: `${base} (de)`,
    en: base,
    es: `${base} (es)`,
    fr: `${base} (fr)`,
    ja: `${base} (ja)`,
    'pt-BR': `${base} (pt)`,
    ru: `${base} (ru)`,
    'zh-CN': `${base} (zh)`,
  });
  return {
    city: { geoname_id: new Uint32(100_000 + i), names: names(`City ${i}`) },
    country: { geoname_id: new Uint32(6252001), iso_code: 'US', names: names('United States') },
    location: {
      accuracy_radius: new Uint32(50),
      latitude: new Double(25 + ((i * 7) % 2400) / 100),
      longitude: new Double(-120 + ((i * 13) % 4500) / 100),
      time_zone: 'America/Chicago',
    },
    subdivisions: [{ geoname_id: new Uint32(200_000 + (i % 50)), iso_code: 'TX', names: names(`Region ${i % 50}`) }],
  };
}

function* slash24s(count: number, data: (i: number) => MmdbNetwork['data']): Generator<MmdbNetwork> {
  const base = 1 << 24;
  for (let i = 0; i < count; i++) {
    const n = base + i * 256;
    yield { network: `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.0/24`, data: data(i) };
  }
}

/** A GeoLite2-City-shaped database of `count` consecutive /24 networks sharing a few thousand places. */
export function generateCityDatabase(count = BENCH_NETWORKS, buildEpoch?: number): Buffer {
  const places = Array.from({ length: DISTINCT_PLACES }, (_, i) => place(i));
  return writeMmdb({
    databaseType: 'GeoLite2-City',
    languages: ['de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'],
    buildEpoch,
    networks: slash24s(count, (i) => places[i % DISTINCT_PLACES]!),
  });
}

/** A GeoLite2-ASN-shaped database over the same networks. */
export function generateAsnDatabase(count = BENCH_NETWORKS): Buffer {
  const orgs = Array.from({ length: 500 }, (_, i) => ({
    autonomous_system_number: new Uint32(64_512 + i),
    autonomous_system_organization: `Bench Network ${i}`,
  }));
  return writeMmdb({ databaseType: 'GeoLite2-ASN', networks: slash24s(count, (i) => orgs[i % orgs.length]!) });
}

/** Writes both generated databases where the server looks for them (DATA_DIR/geo). */
export async function writeBenchDatabases(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'geo');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'GeoLite2-City.mmdb'), generateCityDatabase());
  await writeFile(join(dir, 'GeoLite2-ASN.mmdb'), generateAsnDatabase());
}

/**
 * /api/geo-local on generated databases of 500,000 networks: at least half the
 * bare node:http figure, and at most 1.3 times its CPU per request sending the
 * very same answer (issue 39).
 */
export const geoCases: BenchCase[] = [
  {
    name: 'geo-local: 500k-network city + ASN databases',
    listener: 'api',
    path: `/api/geo-local?ip=${BENCH_IP}&lang=de`,
    // Its own server: the generated databases stay out of the other cases' runs.
    env: { GEODB_AUTO_UPDATE: 'false' },
    prepare: writeBenchDatabases,
    minRatio: 0.5,
    maxCpuRatio: 1.3,
    sameBytes: true,
  },
];
