import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guarded.js';
import { domainGuard } from '../../schemas/guards.js';
import { UpstreamFailure, UpstreamError } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { CENSORSHIP_TIERS, CensorshipAnswer, type CensorshipCountry, type Tier } from '../../contract/censorship.js';

const WINDOW_DAYS = 30;

// OONI's row shape with axis_x=probe_cc and axis_y=blocking_type.
interface OoniRow {
  probe_cc?: unknown;
  blocking_type?: unknown;
  measurement_count?: unknown;
  anomaly_count?: unknown;
  confirmed_count?: unknown;
  failure_count?: unknown;
  ok_count?: unknown;
}

/** The blocking types OONI's web_connectivity reports, the only keys the site has labels for. */
const METHODS = ['dns', 'tcp_ip', 'http-failure', 'http-diff'] as const;
type Method = (typeof METHODS)[number];
const isMethod = (v: unknown): v is Method => (METHODS as readonly unknown[]).includes(v);

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The last 30 whole UTC days: since is inclusive, until (today) exclusive in OONI's aggregation. */
export function measurementWindow(now: Date): { since: string; until: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { since: day(new Date(today - WINDOW_DAYS * 86_400_000)), until: day(new Date(today)) };
}

/** The apex (a leading `www.` removed, when something domain-like remains) and its `www.` variant. */
export function variants(domain: string): [string, string] {
  const apex = domain.startsWith('www.') && domain.slice(4).includes('.') ? domain.slice(4) : domain;
  return [apex, `www.${apex}`];
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);

/** Share of measurements that showed blocking, as the site computes its "blocked %". */
const blockedShare = (c: Pick<CensorshipCountry, 'measurements' | 'anomaly' | 'confirmed'>) =>
  c.measurements > 0 ? (c.anomaly + c.confirmed) / c.measurements : 0;

/** The site's severity tiers: too few measurements say nothing; confirmed blocking outranks a high anomaly share. */
export function tier(c: Pick<CensorshipCountry, 'measurements' | 'anomaly' | 'confirmed'>): Tier {
  if (c.measurements < 5) return 'ok';
  if (c.confirmed / c.measurements >= 0.05) return 'confirmed';
  const share = blockedShare(c);
  if (share >= 0.5) return 'likely';
  if (c.measurements >= 30 && share >= 0.2) return 'signs';
  return 'ok';
}

/** Sums rows per country, tiers each, and sorts by tier, then blocked share and measurements (both most first). */
export function merge(rowSets: OoniRow[][]): CensorshipCountry[] {
  const byCountry = new Map<string, CensorshipCountry>();
  for (const rows of rowSets) {
    for (const row of rows) {
      if (typeof row.probe_cc !== 'string' || !/^[A-Z]{2}$/.test(row.probe_cc)) continue;
      let entry = byCountry.get(row.probe_cc);
      if (!entry) {
        entry = {
          country: row.probe_cc,
          tier: 'ok',
          measurements: 0,
          anomaly: 0,
          confirmed: 0,
          methods: {},
          ok: 0,
          failure: 0,
        };
        byCountry.set(row.probe_cc, entry);
      }
      const anomaly = count(row.anomaly_count);
      const confirmed = count(row.confirmed_count);
      entry.measurements += count(row.measurement_count);
      entry.anomaly += anomaly;
      entry.confirmed += confirmed;
      entry.failure += count(row.failure_count);
      entry.ok += count(row.ok_count);
      // "No blocking" rows (empty, null or false type) and unknown types only add to the totals.
      const hits = anomaly + confirmed;
      if (isMethod(row.blocking_type) && hits > 0) {
        entry.methods[row.blocking_type] = (entry.methods[row.blocking_type] ?? 0) + hits;
      }
    }
  }
  const countries = [...byCountry.values()];
  for (const c of countries) c.tier = tier(c);
  return countries.sort(
    (a, b) =>
      CENSORSHIP_TIERS.indexOf(a.tier) - CENSORSHIP_TIERS.indexOf(b.tier) ||
      blockedShare(b) - blockedShare(a) ||
      b.measurements - a.measurements ||
      a.country.localeCompare(b.country),
  );
}

/** GET /api/censorship-blocking: OONI web_connectivity aggregates per country for a domain and its www. variant. */
const censorship: FastifyPluginAsyncTypebox = async (app) => {
  const cacheTtl = 24 * 60 * 60;
  const fetchRows = async (domain: string, since: string, until: string): Promise<OoniRow[]> => {
    const params = new URLSearchParams({
      domain,
      since,
      until,
      axis_x: 'probe_cc',
      axis_y: 'blocking_type',
      test_name: 'web_connectivity',
    });
    const data = await app.upstream.okJson<{ result?: unknown }>(`https://api.ooni.io/api/v1/aggregation?${params}`, {
      keepForMs: cacheTtl * 1000,
      keepIf: (body) => Array.isArray((body as { result?: unknown } | null)?.result),
    });
    if (!Array.isArray(data.result)) throw new UpstreamError('OONI answered without a result array');
    return data.result.filter((r): r is OoniRow => typeof r === 'object' && r !== null);
  };

  app.get(
    '/censorship-blocking',
    {
      schema: {
        summary: 'Censorship measurements of a domain, country by country',
        querystring: Type.Object({ domain: guarded(domainGuard) }),
        response: { 200: CensorshipAnswer, 400: ErrorBody, 502: ErrorBody },
      },
      config: { cacheTtl },
    },
    async (request) => {
      const { since, until } = measurementWindow(new Date());
      // The domain guard has checked and lower-cased it (plugins/guards.ts).
      const names = variants(request.query.domain);
      const results = await Promise.allSettled(names.map((name) => fetchRows(name, since, until)));
      const answered: OoniRow[][] = [];
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') answered.push(result.value);
        else {
          request.logUpstreamFailure(
            { err: result.reason, domain: names[i] },
            'OONI aggregation failed for one variant',
          );
        }
      });
      if (answered.length === 0) {
        throw new UpstreamFailure('unusable', 'OONI aggregation failed for every variant', { domain: names[0] });
      }
      return {
        domain: names[0],
        since,
        until,
        variants: names.map((domain, i) => ({ domain, ok: results[i]!.status === 'fulfilled' })),
        partial: answered.length < names.length,
        countries: merge(answered),
      };
    },
  );
};

export default censorship;
export { examples } from './examples.js';
