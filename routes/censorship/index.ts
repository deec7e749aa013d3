import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guards.js';
import { UPSTREAM_ERROR } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

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

const Country = Type.Object({
  country: Type.String(),
  measurements: Type.Integer(),
  anomalies: Type.Integer(),
  confirmed: Type.Integer(),
  failures: Type.Integer(),
  ok: Type.Integer(),
  blocking: Type.Record(Type.String(), Type.Integer()),
});

const Aggregate = Type.Object({
  domain: Type.String(),
  since: Type.String(),
  until: Type.String(),
  variants: Type.Array(Type.Object({ domain: Type.String(), ok: Type.Boolean() })),
  partial: Type.Boolean(),
  countries: Type.Array(Country),
});
type CountryRow = Static<typeof Country>;

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

/** Sums rows per country; `blocking` counts the measurements per detected blocking type. */
export function merge(rowSets: OoniRow[][]): CountryRow[] {
  const byCountry = new Map<string, CountryRow>();
  for (const rows of rowSets) {
    for (const row of rows) {
      if (typeof row.probe_cc !== 'string' || !/^[A-Z]{2}$/.test(row.probe_cc)) continue;
      let entry = byCountry.get(row.probe_cc);
      if (!entry) {
        entry = { country: row.probe_cc, measurements: 0, anomalies: 0, confirmed: 0, failures: 0, ok: 0, blocking: {} };
        byCountry.set(row.probe_cc, entry);
      }
      entry.measurements += count(row.measurement_count);
      entry.anomalies += count(row.anomaly_count);
      entry.confirmed += count(row.confirmed_count);
      entry.failures += count(row.failure_count);
      entry.ok += count(row.ok_count);
      // OONI reports "no blocking" as an empty, null or false blocking_type.
      const type = row.blocking_type;
      if (typeof type === 'string' && type !== '' && type !== 'false') {
        entry.blocking[type] = (entry.blocking[type] ?? 0) + count(row.measurement_count);
      }
    }
  }
  return [...byCountry.values()].sort((a, b) => b.anomalies - a.anomalies || a.country.localeCompare(b.country));
}

/** GET /api/censorship-blocking: OONI web_connectivity aggregates per country for a domain and its www. variant. */
const censorship: FastifyPluginAsyncTypebox = async (app) => {
  const fetchRows = async (domain: string, since: string, until: string): Promise<OoniRow[]> => {
    const params = new URLSearchParams({ domain, since, until, axis_x: 'probe_cc', axis_y: 'blocking_type', test_name: 'web_connectivity' });
    const data = await app.upstream.okJson<{ result?: unknown }>(`https://api.ooni.io/api/v1/aggregation?${params}`);
    if (!Array.isArray(data.result)) throw new Error('OONI answered without a result array');
    return data.result.filter((r): r is OoniRow => typeof r === 'object' && r !== null);
  };

  app.get(
    '/censorship-blocking',
    {
      schema: {
        querystring: Type.Object({ domain: guarded('domain') }),
        response: { 200: Aggregate, 400: ErrorBody, 502: ErrorBody },
      },
      config: { cacheTtl: 24 * 60 * 60 },
    },
    async (request, reply) => {
      const { since, until } = measurementWindow(new Date());
      // The domain guard has checked and lower-cased it (plugins/guards.ts).
      const names = variants(request.query.domain as string);
      const results = await Promise.allSettled(names.map((name) => fetchRows(name, since, until)));
      const answered: OoniRow[][] = [];
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') answered.push(result.value);
        else request.log.warn({ err: result.reason, domain: names[i] }, 'OONI aggregation failed for one variant');
      });
      if (answered.length === 0) return reply.code(502).send({ error: UPSTREAM_ERROR });
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
