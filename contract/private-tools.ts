import { Type, type TProperties } from 'typebox';
import { Nullable } from '../schemas/nullable.js';

// The private API's answers pass through: these schemas name what the site
// reads (the frontend contract's REQUIRED fields) and let every other key pass.
const Open = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

// ---- GET /api/dnsleaktest/session/:token

const Place = {
  country_code: Type.Optional(Type.String({ description: 'two-letter code; "N/A", "" or absent hides the flag' })),
  country_name: Type.String(),
  region: Type.String(),
  city: Type.String(),
};

export const LeakSession = Open({
  rawCount: Type.Integer({ minimum: 0, description: 'DNS queries seen for the session' }),
  resolverCount: Type.Integer({ minimum: 0, description: 'distinct resolvers; 0 makes the site poll again' }),
  queries: Type.Array(
    Open({
      ip: Type.String({ description: 'the resolver address that asked' }),
      ipInfo: Open({ ...Place, asn: Type.String({ description: 'e.g. "AS13335", or "N/A"' }), org: Type.String() }),
      queryType: Type.String({ description: 'A, AAAA, …' }),
      transport: Type.String({ description: 'udp, tcp, …' }),
      ecs: Type.Optional(Type.String({ description: 'EDNS Client Subnet the resolver sent' })),
      ecsInfo: Type.Optional(Open(Place)),
      do: Type.Boolean({ description: 'DNSSEC OK bit' }),
      cd: Type.Boolean({ description: 'Checking Disabled bit' }),
    }),
  ),
});

// ---- GET /api/invisibility

export const Pending = Type.Object({ status: Type.Literal('pending') });

const Flag = Type.Boolean();
const Millis = Type.Number({ minimum: 0, description: 'milliseconds' });

/** Once `headers` is there the site reads every one of these objects without a guard. */
export const InvisibilityResult = Open({
  ip: Type.String(),
  score: Open({ proxy: Type.Number({ minimum: 0, maximum: 100 }), vpn: Type.Number({ minimum: 0, maximum: 100 }) }),
  headers: Open({ proxy: Flag }),
  datacenter: Open({ is_datacenter: Flag }),
  blocklist: Open({ proxy: Flag, vpn: Flag, vpnExitNode: Flag }),
  tor_detection: Open({ proxy: Flag, vpn: Flag }),
  tcp: Open({ proxy: Flag, clientos: Type.String(), ipos: Type.String() }),
  latency_vs_ping: Open({ vpn: Flag, tcpTime: Millis, pingTime: Millis }),
  latency_vs_ws: Open({ proxy: Flag, tcpTime: Millis, wsTime: Millis }),
  timezone: Open({ proxy: Flag, vpn: Flag, clienttimezone: Type.String(), iptimezone: Type.String() }),
  net: Open({ proxy: Flag }),
  flow: Open({ proxy: Flag }),
  highlatency: Open({ proxy: Flag }),
  webrtc: Open({ proxy: Flag, allips: Type.Array(Type.String()), ip: Type.String() }),
});

// ---- POST /api/persona/evaluate

const Count = Type.Integer({ minimum: 0 });

export const PersonaEvaluation = Open({
  grade: Type.String({ description: 'A, B, C, D or unknown' }),
  score: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'a share, shown ×100' })),
  counts: Open({
    total: Count,
    scored: Count,
    match: Count,
    mismatch: Count,
    unnatural: Count,
    leak: Count,
    unknown: Count,
    notApplicable: Count,
  }),
  results: Type.Array(
    Open({
      id: Type.String({ description: 'one of the 18 check ids, e.g. ip-country, webrtc-leak' }),
      axis: Type.String({ description: 'match, coherence or leak' }),
      verdict: Type.String({ description: 'match, mismatch, leak, unnatural, unknown or not-applicable' }),
      visibility: Type.String({ description: 'public, probed or risk-engine' }),
      detail: Open({
        reason: Type.Optional(Type.String()),
        exposed: Type.Optional(Type.Array(Open({ ip: Type.String(), countryCode: Type.String() }))),
      }),
    }),
  ),
});

// ---- errors

/** A used-up monthly quota: the site looks for `quota_exceeded` in the body. */
export const QuotaBody = Open({ error: Type.String(), code: Type.Literal('quota_exceeded') });
