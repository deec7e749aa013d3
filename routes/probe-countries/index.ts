import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UpstreamFailure } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { ProbeCountries } from '../../contract/probe-countries.js';

/** The site's continent buckets, in the order its country picker shows them. */
const BUCKETS = ['asia', 'europe', 'africa', 'americas', 'oceania'] as const;
type Bucket = (typeof BUCKETS)[number];

// Globalping's continent codes; Antarctica (AN) has no bucket.
const BUCKET_OF: Record<string, Bucket> = {
  AS: 'asia',
  EU: 'europe',
  AF: 'africa',
  NA: 'americas',
  SA: 'americas',
  OC: 'oceania',
};

// The probe list is the one upstream answer past the 2 MiB default: about 3,000
// probes of half a kilobyte each, growing with the network.
const PROBE_LIST_MAX_BYTES = 8 * 1024 * 1024;

/** The countries with probes, and the same codes bucketed by continent; probes without a two-letter code are left out. */
export function inventory(probes: unknown[]): ProbeCountries {
  const countries = new Set<string>();
  const buckets = new Map<Bucket, Set<string>>();
  for (const probe of probes) {
    const location = (probe as { location?: { country?: unknown; continent?: unknown } } | null)?.location;
    if (typeof location?.country !== 'string' || !/^[A-Za-z]{2}$/.test(location.country)) continue;
    const code = location.country.toUpperCase();
    countries.add(code);
    const bucket = typeof location.continent === 'string' ? BUCKET_OF[location.continent.toUpperCase()] : undefined;
    if (!bucket) continue;
    if (!buckets.has(bucket)) buckets.set(bucket, new Set());
    buckets.get(bucket)!.add(code);
  }
  return {
    countries: [...countries].sort(),
    continents: BUCKETS.filter((key) => buckets.has(key)).map((key) => ({
      key,
      countries: [...buckets.get(key)!].sort(),
    })),
  };
}

/** GET /api/probe-countries: countries with online Globalping probes (the API lists online probes only). */
const probeCountries: FastifyPluginAsyncTypebox = async (app) => {
  const cacheTtl = 7 * 24 * 60 * 60;
  app.get(
    '/probe-countries',
    {
      schema: {
        summary: 'The countries with measurement probes online, by continent',
        response: { 200: ProbeCountries, 502: ErrorBody },
      },
      config: { cacheTtl },
    },
    async () => {
      let probes;
      try {
        probes = await app.upstream.okJson<unknown>('https://api.globalping.io/v1/probes', {
          maxBytes: PROBE_LIST_MAX_BYTES,
          keepForMs: cacheTtl * 1000,
          keepIf: Array.isArray,
        });
      } catch (err) {
        throw new UpstreamFailure('unusable', 'Globalping probe list failed', { err });
      }
      if (!Array.isArray(probes)) throw new UpstreamFailure('unusable', 'Globalping answered without a probe array');
      return inventory(probes);
    },
  );
};

export default probeCountries;
export { examples, upstreamAnswers } from './examples.js';
