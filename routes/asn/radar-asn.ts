import type { AsnProfile } from '../../contract/asn.js';
import { numbers, radarGet, RadarFailed, type RadarContext } from './radar-client.js';
import { finiteNumber, nonEmptyString } from '../../lib/json-values.js';

type Relationships = NonNullable<AsnProfile['relationships']>;

// Made at the first count shown: an Intl formatter reads ICU's data from the
// node binary, 5 MB of resident memory that a module loaded at start held idle.
let usersFormat: Intl.NumberFormat | undefined;

function percent(value: unknown): string | undefined {
  const n = finiteNumber(value);
  return n === null ? undefined : `${n.toFixed(2)}%`;
}

interface RadarEntity {
  asn?: { name?: unknown; country?: unknown; orgName?: unknown; estimatedUsers?: { estimatedUsers?: unknown } };
}
interface RadarRel {
  asn1?: number;
  asn2?: number;
  rel?: string;
}

/** Radar lists each relation once as `asn1 rel asn2`, P2C meaning asn1 is asn2's provider. */
function countRels(asn: number, rels: RadarRel[] | undefined): Relationships {
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

/**
 * view=asn: eight Radar calls in parallel. A failed segment is logged and
 * leaves its fields out (flat fields) or null (the spec's extras); the
 * relationship counts then come from the local AS-relationship snapshot.
 * Only when every segment fails is the answer a 500.
 */
export async function asnProfile(ctx: RadarContext, asn: number): Promise<AsnProfile> {
  const { upstream, key } = ctx;
  const q = { asn: String(asn), dateRange: '7d', format: 'json' };
  const summary = (dimension: string) =>
    radarGet<{ summary_0?: Record<string, unknown> }>(upstream, key, `http/summary/${dimension}`, q).then(
      (r) => r.summary_0 ?? {},
    );
  const segments = {
    entity: radarGet<RadarEntity>(upstream, key, `entities/asns/${asn}`).then((r) => r.asn ?? {}),
    ipVersion: summary('ip_version'),
    httpProtocol: summary('http_protocol'),
    deviceType: summary('device_type'),
    botClass: summary('bot_class'),
    prefixes: radarGet<{ stats?: Record<string, unknown> }>(upstream, key, 'bgp/routes/stats', {
      asn: String(asn),
      format: 'json',
    }).then((r) => ({
      ipv4: finiteNumber(r.stats?.distinct_prefixes_ipv4),
      ipv6: finiteNumber(r.stats?.distinct_prefixes_ipv6),
    })),
    relationships: radarGet<{ rels?: RadarRel[] }>(upstream, key, `entities/asns/${asn}/rel`, { format: 'json' }).then(
      (r) => countRels(asn, r.rels),
    ),
    speed: radarGet<{ summary_0?: unknown }>(upstream, key, 'quality/speed/summary', {
      asn: String(asn),
      format: 'json',
    }).then((r) => numbers(r.summary_0)),
  };
  type Segments = typeof segments;
  const names = Object.keys(segments) as Array<keyof Segments>;
  const settled = await Promise.allSettled(names.map((n) => segments[n]));
  const got: { [K in keyof Segments]?: Awaited<Segments[K]> } = {};
  const missing: string[] = [];
  settled.forEach((s, i) => {
    const name = names[i]!;
    if (s.status === 'fulfilled') (got as Record<string, unknown>)[name] = s.value;
    else {
      missing.push(name);
      ctx.failures.logUpstreamFailure({ err: s.reason, segment: name, asn }, 'radar segment failed');
    }
  });
  if (missing.length === names.length) {
    throw new RadarFailed('every radar segment failed', { asn });
  }

  let relationships: Relationships | null = got.relationships ?? null;
  if (!relationships) {
    const local = ctx.datasets.graph?.relationCounts(asn);
    if (local) {
      relationships = {
        upstreams: local.upstreams,
        downstreams: local.downstreams,
        peers: local.peers,
        source: 'local',
      };
    }
  }
  const body: AsnProfile = { prefixes: got.prefixes ?? null, relationships, speed: got.speed ?? null, missing };
  const entity = got.entity;
  if (entity) {
    body.asnName = nonEmptyString(entity.name) ?? undefined;
    body.asnCountryCode = nonEmptyString(entity.country) ?? undefined;
    body.asnOrgName = nonEmptyString(entity.orgName) ?? undefined;
    const users = finiteNumber(entity.estimatedUsers?.estimatedUsers);
    if (users !== null) {
      body.estimatedUsers = (usersFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })).format(
        users,
      );
    }
  }
  body.IPv4_Pct = percent(got.ipVersion?.IPv4);
  body.IPv6_Pct = percent(got.ipVersion?.IPv6);
  body.HTTP_Pct = percent(got.httpProtocol?.http);
  body.HTTPS_Pct = percent(got.httpProtocol?.https);
  body.Desktop_Pct = percent(got.deviceType?.desktop);
  body.Mobile_Pct = percent(got.deviceType?.mobile);
  body.Bot_Pct = percent(got.botClass?.bot);
  body.Human_Pct = percent(got.botClass?.human);
  return body;
}
