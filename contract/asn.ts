import { Type, type Static } from 'typebox';
import { Nullable } from '../schemas/nullable.js';
import { StringEnum } from './string-enum.js';

// A flat field is absent, never null, when its segment failed or Radar gave no usable value.
const Text = Type.Optional(Type.String());
/** Two decimals and a percent sign, e.g. "71.39%": the frontend strips the sign and parses the rest. */
const Percent = Type.Optional(Type.String({ pattern: '^[0-9]+\\.[0-9]{2}%$' }));

/** GET /api/asn-radar?view=asn: an AS's profile from the traffic observatory. */
export const AsnProfile = Type.Object({
  asnName: Text,
  /** ISO 3166-1 alpha-2. */
  asnCountryCode: Text,
  asnOrgName: Text,
  /** en-US thousands separators, e.g. "1,234,567". */
  estimatedUsers: Text,
  IPv4_Pct: Percent,
  IPv6_Pct: Percent,
  HTTP_Pct: Percent,
  HTTPS_Pct: Percent,
  Desktop_Pct: Percent,
  Mobile_Pct: Percent,
  Bot_Pct: Percent,
  Human_Pct: Percent,
  // The spec's further content, beside the flat fields the frontend reads; null when the segment failed.
  prefixes: Nullable(Type.Object({ ipv4: Nullable(Type.Integer()), ipv6: Nullable(Type.Integer()) })),
  relationships: Nullable(
    Type.Object({
      upstreams: Type.Integer(),
      downstreams: Type.Integer(),
      peers: Type.Integer(),
      source: Type.Union([Type.Literal('radar'), Type.Literal('local')]),
    }),
  ),
  /** Radar's speed-test aggregates: bandwidth in Mbps, latency and jitter in ms, packet loss in percent. */
  speed: Nullable(Type.Record(Type.String(), Type.Number())),
  /** Segments that failed, by name. */
  missing: Type.Array(Type.String()),
});
export type AsnProfile = Static<typeof AsnProfile>;

/** Where an AS sits in the graph: the one asked about (itself a Tier-1 or not), a Tier-1, or one between. */
const NODE_TYPES = ['origin', 'origin-tier1', 'tier1', 'intermediate'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** GET /api/asn-connectivity: an AS's upstream graph toward the Tier-1 networks. */
export const Connectivity = Type.Object({
  origin: Type.Integer(),
  nodes: Type.Array(Type.Object({ asn: Type.Integer(), type: StringEnum(NODE_TYPES), name: Nullable(Type.String()) })),
  /** Customer → provider. */
  edges: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer() })),
  // Ours, beside the contract's graph: the site counts the neighbours from the data it draws, and tells a server
  // without the dataset from a network missing in it.
  /** The origin's neighbours in the same snapshot; null when the origin is not in it or no snapshot is loaded. */
  relationships: Nullable(
    Type.Object({ upstreams: Type.Integer(), downstreams: Type.Integer(), peers: Type.Integer() }),
  ),
  /** The date (YYYY-MM-DD) of the AS-relationship snapshot drawn from; null when the server has none loaded. */
  snapshot: Nullable(Type.String({ format: 'date' })),
});
export type Connectivity = Static<typeof Connectivity>;

/** GET /api/asn-history: the origin ASes that announced a prefix over time. */
export const AsnHistory = Type.Object({
  prefix: Type.String(),
  /** Newest `lastSeen` first. */
  history: Type.Array(
    Type.Object({
      /** Digits only, no `AS`. */
      asn: Type.String({ pattern: '^[0-9]+$' }),
      org: Nullable(Type.String()),
      firstSeen: Type.String(),
      lastSeen: Type.String(),
      /** Highest full_peers_seeing over the origin's timelines, rounded. */
      peers: Type.Integer(),
      /** `peers` as a whole percentage of the highest `peers` among the rows. */
      peersPct: Type.Integer({ minimum: 0, maximum: 100 }),
      prefixes: Type.Array(Type.String()),
    }),
  ),
});
export type AsnHistory = Static<typeof AsnHistory>;
/** One origin AS of a prefix's history. */
export type HistoryRow = AsnHistory['history'][number];

/** One event of GET /api/asn-radar?view=outages: a Radar outage annotation or a traffic anomaly. */
export const OutageEvent = Type.Object({
  kind: StringEnum(['outage', 'anomaly'] as const),
  /** "o-<annotation id>" or "a-<anomaly uuid>". */
  id: Type.String(),
  startDate: Type.String(),
  /** null while the event is ongoing. */
  endDate: Nullable(Type.String()),
  /** Country codes. */
  locations: Type.Array(Type.String()),
  asns: Type.Array(Type.Object({ asn: Type.Integer(), name: Type.String() })),
  /** Radar's SNAKE_CASE cause (POWER_OUTAGE, CABLE_CUT, …); UNKNOWN for an outage without one, null for an anomaly. */
  cause: Nullable(Type.String()),
  /** NATIONWIDE, REGIONAL, NETWORK, …; null for an anomaly. */
  level: Nullable(Type.String()),
  description: Nullable(Type.String()),
  scope: Nullable(Type.String()),
  linkedUrl: Nullable(Type.String()),
});
export type OutageEvent = Static<typeof OutageEvent>;

export const Outages = Type.Object({
  /** Ongoing first, then newest start first; at most MAX_EVENTS. */
  events: Type.Array(OutageEvent),
});
export type Outages = Static<typeof Outages>;
