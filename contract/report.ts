import { Type, type Static, type TProperties } from 'typebox';
import { Compile } from 'typebox/compile';
import { Nullable } from '../schemas/nullable.js';
import { NAT_ANSWERS } from './nat-answers.js';
import {
  bool,
  cc,
  closed,
  integerIn,
  ip,
  ipOrDomain,
  isoDate,
  numberIn,
  oneOf,
  opt,
  stringUpTo,
  tz,
} from './report-kinds.js';

// The whitelist of what a shared report may hold, exactly the one the site's
// page builds and reads (it renders the sections in this order). Every value
// is typed and bounded and every object closed, so nothing free-form is stored.

const MAX_MS = 600000;
const MAX_ASN = 4294967295;

/** A section's list of up to `maxItems` closed items. */
const listOf = <T extends TProperties>(maxItems: number, item: T) => Type.Array(closed(item), { maxItems });

/**
 * Where an address a test met sits, for the lists that give these three last
 * (a stored report is answered in the contract's key order, so webrtc and
 * enhanceddnsleak, which interleave them, spell them out).
 */
const located = { ip: opt(ip()), countryCode: opt(cc()), org: opt(stringUpTo(128)) };

const ipinfo = closed({
  testedAt: isoDate(),
  cards: listOf(8, {
    source: stringUpTo(64),
    ip: opt(ip()),
    countryCode: opt(cc()),
    region: opt(stringUpTo(64)),
    city: opt(stringUpTo(64)),
    timezone: opt(tz()),
    asn: opt(stringUpTo(16)),
    isp: opt(stringUpTo(128)),
    isProxy: opt(oneOf('yes', 'maybe', 'no')),
    ipType: opt(oneOf('business', 'residential', 'wireless', 'hosting')),
    nativeIP: opt(bool()),
    qualityScore: opt(numberIn(0, 100)),
    proxyProtocol: opt(stringUpTo(32)),
    proxyProvider: opt(stringUpTo(64)),
  }),
});

const connectivity = closed({
  testedAt: isoDate(),
  targets: listOf(72, {
    id: stringUpTo(48),
    name: stringUpTo(64),
    status: oneOf('ok', 'unreachable', 'timeout'),
    timeMs: opt(integerIn(0, MAX_MS)),
    minTimeMs: opt(integerIn(0, MAX_MS)),
    custom: opt(bool()),
  }),
});

const webrtc = closed({
  testedAt: isoDate(),
  servers: listOf(8, {
    id: stringUpTo(32),
    url: stringUpTo(128),
    ip: opt(ip()),
    natType: oneOf('host', 'srflx', 'prflx', 'relay', 'unknown', 'unavailable', 'error'),
    countryCode: opt(cc()),
    org: opt(stringUpTo(128)),
  }),
});

const dnsleak = closed({
  testedAt: isoDate(),
  providers: listOf(8, {
    id: stringUpTo(32),
    name: stringUpTo(64),
    ...located,
  }),
});

const quality = () => oneOf('bad', 'poor', 'average', 'good', 'great');

const speedtest = closed({
  testedAt: isoDate(),
  downloadMbps: opt(Nullable(numberIn(0, 1e6))),
  uploadMbps: opt(Nullable(numberIn(0, 1e6))),
  latencyMs: opt(Nullable(numberIn(0, MAX_MS))),
  jitterMs: opt(Nullable(numberIn(0, MAX_MS))),
  loadedLatencyDownMs: opt(Nullable(numberIn(0, MAX_MS))),
  loadedLatencyUpMs: opt(Nullable(numberIn(0, MAX_MS))),
  scores: opt(
    closed({ streaming: opt(integerIn(0, 10000)), gaming: opt(integerIn(0, 10000)), rtc: opt(integerIn(0, 10000)) }),
  ),
  qualities: opt(closed({ streaming: opt(quality()), gaming: opt(quality()), rtc: opt(quality()) })),
  connection: opt(
    closed({ ip: opt(ip()), colo: opt(stringUpTo(8)), coloCountryCode: opt(cc()), coloCity: opt(stringUpTo(64)) }),
  ),
});

/** A test run from up to 32 probes toward one target: each probe's country and what it measured. */
const probeTest = <T extends TProperties>(measured: T) =>
  closed({
    testedAt: isoDate(),
    target: ipOrDomain(),
    probes: listOf(32, { countryCode: opt(cc()), ...measured }),
  });

const pingtest = probeTest({
  stats: closed({
    min: opt(numberIn(0, MAX_MS)),
    max: opt(numberIn(0, MAX_MS)),
    avg: opt(numberIn(0, MAX_MS)),
    loss: opt(numberIn(0, 100)),
    total: opt(integerIn(0, 1000)),
    rcv: opt(integerIn(0, 1000)),
    drop: opt(integerIn(0, 1000)),
  }),
});

const hop = closed({
  n: integerIn(1, 64),
  asn: opt(Nullable(integerIn(0, MAX_ASN))),
  host: opt(stringUpTo(128)),
  ip: opt(ip()),
  lossPct: opt(numberIn(0, 100)),
  drop: opt(integerIn(0, 10000)),
  rcv: opt(integerIn(0, 10000)),
  sntCount: opt(integerIn(0, 10000)),
  lastMs: opt(numberIn(0, MAX_MS)),
  avgMs: opt(numberIn(0, MAX_MS)),
  bestMs: opt(numberIn(0, MAX_MS)),
  worstMs: opt(numberIn(0, MAX_MS)),
  stdevMs: opt(numberIn(0, MAX_MS)),
  javgMs: opt(numberIn(0, MAX_MS)),
});

const mtrtest = probeTest({
  city: opt(stringUpTo(64)),
  network: opt(stringUpTo(128)),
  asn: opt(integerIn(0, MAX_ASN)),
  hops: Type.Array(hop, { maxItems: 64 }),
});

const ruletest = closed({
  testedAt: isoDate(),
  uniqueIPCount: integerIn(0, 16),
  workers: listOf(16, { id: integerIn(1, 16), ...located }),
});

const software = () => closed({ name: opt(stringUpTo(64)), version: opt(stringUpTo(32)) });

const browserinfo = closed({
  testedAt: isoDate(),
  browser: opt(software()),
  os: opt(software()),
  engine: opt(software()),
  timezone: opt(stringUpTo(64)),
  languages: opt(Type.Array(stringUpTo(16), { maxItems: 16 })),
  display: opt(
    closed({ width: opt(integerIn(0, 100000)), height: opt(integerIn(0, 100000)), pixelRatio: opt(numberIn(0, 100)) }),
  ),
  connection: opt(
    Nullable(
      closed({
        effectiveType: opt(stringUpTo(16)),
        downlink: opt(numberIn(0, 100000)),
        rtt: opt(integerIn(0, MAX_MS)),
      }),
    ),
  ),
});

const invisibility = closed({
  testedAt: isoDate(),
  ip: opt(ip()),
  scores: closed({ proxy: numberIn(0, 100), vpn: numberIn(0, 100) }),
  flags: listOf(20, { key: stringUpTo(32), flagged: bool() }),
});

const enhanceddnsleak = closed({
  testedAt: isoDate(),
  rawCount: integerIn(0, 100000),
  resolverCount: integerIn(0, 10000),
  dnssec: oneOf('ok', 'partial', 'none'),
  queries: listOf(128, {
    ip: opt(ip()),
    countryCode: opt(cc()),
    asn: opt(stringUpTo(16)),
    org: opt(stringUpTo(128)),
    transport: opt(stringUpTo(16)),
    ecs: opt(stringUpTo(64)),
    do: opt(bool()),
    cd: opt(bool()),
  }),
});

const count = () => integerIn(0, 64);

const persona = closed({
  testedAt: isoDate(),
  country: cc(),
  grade: oneOf('A', 'B', 'C', 'D', 'unknown'),
  score: Nullable(integerIn(0, 100)),
  counts: closed({
    total: count(),
    scored: count(),
    match: count(),
    mismatch: count(),
    unnatural: count(),
    leak: count(),
    unknown: count(),
    notApplicable: count(),
  }),
  results: listOf(32, {
    id: stringUpTo(48),
    axis: oneOf('match', 'coherence', 'leak'),
    verdict: oneOf('match', 'mismatch', 'leak', 'unnatural', 'unknown', 'not-applicable'),
  }),
});

/** The IPv6 readiness test's outcomes; the page and the report's view score them alike (features/ipv6/readiness.ts). */
const ipv6readiness = closed({
  testedAt: isoDate(),
  tests: listOf(8, {
    id: oneOf('v4', 'v6', 'dual', 'fallback', 'literal', 'v4-large', 'v6-large', 'v6-dns'),
    state: oneOf('ok', 'failed', 'not-run'),
    reason: opt(oneOf('timeout', 'unreachable')),
    ms: opt(integerIn(0, MAX_MS)),
    family: opt(oneOf('IPv4', 'IPv6')),
  }),
});

// NAT behaviour (issue 40): RFC 4787's mapping per address family, the rounds that agreed, and
// carrier-grade NAT as a likelihood with the kinds of its evidence (no address: webrtc holds those).
const nattest = closed({
  testedAt: isoDate(),
  servers: integerIn(0, 64),
  families: listOf(2, {
    family: oneOf('ipv4', 'ipv6'),
    mapping: oneOf(...NAT_ANSWERS),
    agreeing: integerIn(0, 10),
    rounds: integerIn(0, 10),
  }),
  carrierGrade: oneOf('likely', 'possible', 'no-sign', 'unknown'),
  evidence: listOf(2, { kind: oneOf('shared-range', 'different-address') }),
});

/** Each section optional, at least one present, no other key. */
export const Sections = Type.Object(
  {
    ipinfo: opt(ipinfo),
    connectivity: opt(connectivity),
    webrtc: opt(webrtc),
    dnsleak: opt(dnsleak),
    speedtest: opt(speedtest),
    pingtest: opt(pingtest),
    mtrtest: opt(mtrtest),
    ruletest: opt(ruletest),
    browserinfo: opt(browserinfo),
    invisibility: opt(invisibility),
    enhanceddnsleak: opt(enhanceddnsleak),
    persona: opt(persona),
    ipv6readiness: opt(ipv6readiness),
    nattest: opt(nattest),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The report envelope: all keys required. */
export const Report = closed({
  v: Type.Literal(1, { description: 'integer 1' }),
  generatedAt: isoDate(),
  /** The page's hostname, e.g. `localhost`. */
  origin: stringUpTo(64),
  locale: stringUpTo(8),
  sections: Sections,
});
export type Report = Static<typeof Report>;

export const checkReport = Compile(Report);

/** POST /api/report: the stored report's id and when it expires. */
export const ReportCreated = Type.Object({ id: Type.String(), expiresAt: Type.String() });
export type ReportCreated = Static<typeof ReportCreated>;

/** GET /api/report/:id: a shared report and when it expires. */
export const StoredReport = Type.Object({ expiresAt: Type.String(), report: Report });
export type StoredReport = Static<typeof StoredReport>;
