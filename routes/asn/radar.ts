import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { applyGuard } from '../../schemas/guards.js';
import { ApiKeyMissing } from '../../lib/private-api.js';
import type { Upstream } from '../../lib/upstream.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { num, numbers, radarGet, str } from './radar-client.js';
import { HttpError } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { Nullable } from '../../schemas/nullable.js';

const DAY = 24 * 60 * 60;
const RADAR_UNAVAILABLE = 'Radar data unavailable';

const Shares = Type.Record(Type.String(), Type.Number());
// A parameter given twice arrives as an array; the view's guard then answers "Invalid …".
const Param = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));

const AsnView = Type.Object({
  view: Type.Literal('asn'),
  asn: Type.Integer(),
  entity: Nullable(
    Type.Object({
      asn: Type.Integer(),
      name: Nullable(Type.String()),
      orgName: Nullable(Type.String()),
      country: Nullable(Type.String()),
      countryName: Nullable(Type.String()),
      website: Nullable(Type.String()),
    }),
  ),
  traffic: Type.Object({
    ipVersion: Nullable(Shares),
    httpProtocol: Nullable(Shares),
    deviceType: Nullable(Shares),
    botClass: Nullable(Shares),
  }),
  prefixes: Nullable(Type.Object({ ipv4: Nullable(Type.Integer()), ipv6: Nullable(Type.Integer()) })),
  relationships: Nullable(
    Type.Object({
      upstreams: Type.Integer(),
      downstreams: Type.Integer(),
      peers: Type.Integer(),
      source: Type.Union([Type.Literal('radar'), Type.Literal('local')]),
    }),
  ),
  speed: Nullable(Shares),
  missing: Type.Array(Type.String()),
});

const Outage = Type.Object({
  id: Nullable(Type.String()),
  dataSource: Nullable(Type.String()),
  eventType: Nullable(Type.String()),
  description: Nullable(Type.String()),
  scope: Nullable(Type.String()),
  startDate: Nullable(Type.String()),
  endDate: Nullable(Type.String()),
  locations: Type.Array(Type.String()),
  asns: Type.Array(Type.Integer()),
  outageCause: Nullable(Type.String()),
  outageType: Nullable(Type.String()),
  linkedUrl: Nullable(Type.String()),
});
const OutagesView = Type.Object({ view: Type.Literal('outages'), dateRange: Type.String(), outages: Type.Array(Outage) });

const ActivityView = Type.Object({
  view: Type.Literal('activity'),
  country: Type.String(),
  dateRange: Type.String(),
  days: Type.Array(Type.Object({ date: Type.String(), hours: Type.Array(Nullable(Type.Number())) })),
});

type AsnBody = Static<typeof AsnView>;
type OutagesBody = Static<typeof OutagesView>;
type ActivityBody = Static<typeof ActivityView>;

interface Ctx {
  upstream: Upstream;
  key: string;
  datasets: AsnDatasets;
  log: FastifyBaseLogger;
}

interface ViewDef {
  /** Query parameter the view reads and the guard checking it. */
  param?: { name: 'asn' | 'country'; guard: string };
  ttl: number;
  run: (ctx: Ctx, value: string) => Promise<AsnBody | OutagesBody | ActivityBody>;
}

// The outage feed: Radar's annotation window of one week, up to 100 entries.
const OUTAGES_QUERY = { dateRange: '7d', limit: '100', format: 'json' };
// The heatmap: one week of hourly HTTP request volume for the country,
// normalised by Radar to 0..1 of the week's peak.
const ACTIVITY_QUERY = { dateRange: '7d', aggInterval: '1h', normalization: 'MIN0_MAX', format: 'json' };

const VIEWS: Record<string, ViewDef> = {
  asn: { param: { name: 'asn', guard: 'asn' }, ttl: 30 * DAY, run: (ctx, asn) => asnView(ctx, Number(asn)) },
  outages: { ttl: 60 * 60, run: (ctx) => outagesView(ctx) },
  activity: { param: { name: 'country', guard: 'country' }, ttl: 60 * 60, run: (ctx, country) => activityView(ctx, country) },
};

interface RadarEntity {
  asn?: Record<string, unknown>;
}
interface RadarRel {
  asn1?: number;
  asn2?: number;
  rel?: string;
}

async function asnView(ctx: Ctx, asn: number): Promise<AsnBody> {
  const { upstream, key } = ctx;
  const q = { asn: String(asn), dateRange: '7d', format: 'json' };
  const summary = (dimension: string) => radarGet<{ summary_0?: unknown }>(upstream, key, `http/summary/${dimension}`, q).then((r) => numbers(r.summary_0));
  const segments = {
    entity: radarGet<RadarEntity>(upstream, key, `entities/asns/${asn}`).then((r) => {
      const e = r.asn ?? {};
      return { asn, name: str(e.name), orgName: str(e.orgName), country: str(e.country), countryName: str(e.countryName), website: str(e.website) };
    }),
    ipVersion: summary('ip_version'),
    httpProtocol: summary('http_protocol'),
    deviceType: summary('device_type'),
    botClass: summary('bot_class'),
    prefixes: radarGet<{ stats?: Record<string, unknown> }>(upstream, key, 'bgp/routes/stats', { asn: String(asn), format: 'json' }).then((r) => ({
      ipv4: num(r.stats?.distinct_prefixes_ipv4),
      ipv6: num(r.stats?.distinct_prefixes_ipv6),
    })),
    relationships: radarGet<{ rels?: RadarRel[] }>(upstream, key, `entities/asns/${asn}/rel`, { format: 'json' }).then((r) => countRels(asn, r.rels)),
    speed: radarGet<{ summary_0?: unknown }>(upstream, key, 'quality/speed/summary', { asn: String(asn), format: 'json' }).then((r) => numbers(r.summary_0)),
  };
  const names = Object.keys(segments) as Array<keyof typeof segments>;
  const settled = await Promise.allSettled(names.map((n) => segments[n]));
  const value: Partial<Record<keyof typeof segments, unknown>> = {};
  const missing: string[] = [];
  settled.forEach((s, i) => {
    const name = names[i]!;
    if (s.status === 'fulfilled') value[name] = s.value;
    else {
      missing.push(name);
      ctx.log.warn({ err: s.reason, segment: name, asn }, 'radar segment failed');
    }
  });
  if (missing.length === names.length) throw new HttpError(500, RADAR_UNAVAILABLE);

  let relationships = (value.relationships as AsnBody['relationships'] | undefined) ?? null;
  if (!relationships) {
    const local = ctx.datasets.graph?.relationCounts(asn);
    if (local) relationships = { ...local, source: 'local' };
  }
  return {
    view: 'asn',
    asn,
    entity: (value.entity as AsnBody['entity'] | undefined) ?? null,
    traffic: {
      ipVersion: (value.ipVersion as Record<string, number> | null | undefined) ?? null,
      httpProtocol: (value.httpProtocol as Record<string, number> | null | undefined) ?? null,
      deviceType: (value.deviceType as Record<string, number> | null | undefined) ?? null,
      botClass: (value.botClass as Record<string, number> | null | undefined) ?? null,
    },
    prefixes: (value.prefixes as AsnBody['prefixes'] | undefined) ?? null,
    relationships,
    speed: (value.speed as Record<string, number> | null | undefined) ?? null,
    missing,
  };
}

/** Radar lists each relation once as `asn1 rel asn2`, P2C meaning asn1 is asn2's provider. */
function countRels(asn: number, rels: RadarRel[] | undefined): NonNullable<AsnBody['relationships']> {
  if (!Array.isArray(rels)) throw new Error('Radar relationships answer without rels');
  const up = new Set<number>();
  const down = new Set<number>();
  const peers = new Set<number>();
  for (const r of rels) {
    const other = r.asn1 === asn ? r.asn2 : r.asn2 === asn ? r.asn1 : undefined;
    if (typeof other !== 'number') continue;
    const iAmFirst = r.asn1 === asn;
    if (r.rel === 'P2P') peers.add(other);
    else if (r.rel === 'P2C') (iAmFirst ? down : up).add(other);
    else if (r.rel === 'C2P') (iAmFirst ? up : down).add(other);
  }
  return { upstreams: up.size, downstreams: down.size, peers: peers.size, source: 'radar' };
}

interface RadarAnnotation {
  id?: unknown;
  dataSource?: unknown;
  eventType?: unknown;
  description?: unknown;
  scope?: unknown;
  startDate?: unknown;
  endDate?: unknown;
  locations?: unknown;
  asns?: unknown;
  linkedUrl?: unknown;
  outage?: { outageCause?: unknown; outageType?: unknown };
}

async function outagesView(ctx: Ctx): Promise<OutagesBody> {
  const result = await radarCall(ctx, () => radarGet<{ annotations?: RadarAnnotation[] }>(ctx.upstream, ctx.key, 'annotations/outages', OUTAGES_QUERY));
  const list = Array.isArray(result.annotations) ? result.annotations : [];
  return {
    view: 'outages',
    dateRange: OUTAGES_QUERY.dateRange,
    outages: list.map((a) => ({
      id: a.id === undefined || a.id === null ? null : String(a.id),
      dataSource: str(a.dataSource),
      eventType: str(a.eventType),
      description: str(a.description),
      scope: str(a.scope),
      startDate: str(a.startDate),
      endDate: str(a.endDate),
      locations: Array.isArray(a.locations) ? a.locations.filter((l): l is string => typeof l === 'string') : [],
      asns: Array.isArray(a.asns) ? a.asns.filter((n): n is number => Number.isInteger(n)) : [],
      outageCause: str(a.outage?.outageCause),
      outageType: str(a.outage?.outageType),
      linkedUrl: str(a.linkedUrl),
    })),
  };
}

async function activityView(ctx: Ctx, country: string): Promise<ActivityBody> {
  const result = await radarCall(ctx, () =>
    radarGet<{ serie_0?: { timestamps?: unknown; values?: unknown } }>(ctx.upstream, ctx.key, 'http/timeseries', { ...ACTIVITY_QUERY, location: country }),
  );
  const timestamps = Array.isArray(result.serie_0?.timestamps) ? result.serie_0.timestamps : [];
  const values = Array.isArray(result.serie_0?.values) ? result.serie_0.values : [];
  const days = new Map<string, Array<number | null>>();
  timestamps.forEach((t, i) => {
    const at = typeof t === 'string' ? new Date(t) : undefined;
    if (!at || Number.isNaN(at.getTime())) return;
    const date = at.toISOString().slice(0, 10);
    let hours = days.get(date);
    if (!hours) days.set(date, (hours = new Array<number | null>(24).fill(null)));
    hours[at.getUTCHours()] = num(values[i]);
  });
  return {
    view: 'activity',
    country,
    dateRange: ACTIVITY_QUERY.dateRange,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, hours]) => ({ date, hours })),
  };
}

/** A single-call view: a Radar failure is the view's total failure. */
async function radarCall<T>(ctx: Ctx, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    ctx.log.warn({ err }, 'radar request failed');
    throw new HttpError(500, RADAR_UNAVAILABLE);
  }
}

const Query = Type.Object({ view: Param, asn: Param, country: Param });

/**
 * GET /api/asn-radar?view=: Cloudflare Radar views. The view is dispatched
 * here rather than by the schema's guards because each view has its own
 * guard, which must answer before the key check, and its own cache TTL.
 */
const radar: FastifyPluginAsyncTypebox<{ datasets: AsnDatasets }> = async (app, { datasets }) => {
  app.get(
    '/asn-radar',
    { schema: { querystring: Query, response: { 200: Type.Union([AsnView, OutagesView, ActivityView]), '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request, reply) => {
      const { view } = request.query;
      if (view === undefined || view === '') return reply.code(400).send({ error: 'No view provided' });
      if (typeof view !== 'string' || !Object.hasOwn(VIEWS, view)) return reply.code(400).send({ error: 'Invalid view' });
      const def = VIEWS[view]!;
      let value = '';
      if (def.param) {
        const checked = applyGuard(def.param.guard, request.query[def.param.name]);
        if (typeof checked !== 'string') return reply.code(400).send(checked);
        value = checked;
      }
      const key = app.config.RADAR_API_KEY.trim();
      if (!key) throw new ApiKeyMissing();
      const body = await def.run({ upstream: app.upstream, key, datasets, log: request.log }, value);
      reply.header('cache-control', `public, max-age=${def.ttl}`);
      return body;
    },
  );
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/asn-radar',
    schema: { response: { 405: ErrorBody } },
    handler: async (_request, reply) => reply.code(405).send({ error: 'Method Not Allowed' }),
  });
};

export default radar;
