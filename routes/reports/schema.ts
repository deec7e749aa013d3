import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { Nullable as nullable } from '../../schemas/nullable.js';
import { bool, cc, closed, int, ip, ipOrDomain, isoDate, num, oneOf, opt, str, tz } from './kinds.js';

// The whitelist of what a shared report may hold, exactly the one the site's
// page builds and reads (it renders the sections in this order). Every value
// is typed and bounded and every object closed, so nothing free-form is stored.

const MAX_MS = 600000;
const MAX_ASN = 4294967295;

const ipinfo = closed({
  testedAt: isoDate(),
  cards: Type.Array(
    closed({
      source: str(64),
      ip: opt(ip()),
      countryCode: opt(cc()),
      region: opt(str(64)),
      city: opt(str(64)),
      timezone: opt(tz()),
      asn: opt(str(16)),
      isp: opt(str(128)),
      isProxy: opt(oneOf('yes', 'maybe', 'no')),
      ipType: opt(oneOf('business', 'residential', 'wireless', 'hosting')),
      nativeIP: opt(bool()),
      qualityScore: opt(num(0, 100)),
      proxyProtocol: opt(str(32)),
      proxyProvider: opt(str(64)),
    }),
    { maxItems: 8 },
  ),
});

const connectivity = closed({
  testedAt: isoDate(),
  targets: Type.Array(
    closed({
      id: str(48),
      name: str(64),
      status: oneOf('ok', 'unreachable', 'timeout'),
      timeMs: opt(int(0, MAX_MS)),
      minTimeMs: opt(int(0, MAX_MS)),
      custom: opt(bool()),
    }),
    { maxItems: 72 },
  ),
});

const webrtc = closed({
  testedAt: isoDate(),
  servers: Type.Array(
    closed({
      id: str(32),
      url: str(128),
      ip: opt(ip()),
      natType: oneOf('host', 'srflx', 'prflx', 'relay', 'unknown', 'unavailable', 'error'),
      countryCode: opt(cc()),
      org: opt(str(128)),
    }),
    { maxItems: 8 },
  ),
});

const dnsleak = closed({
  testedAt: isoDate(),
  providers: Type.Array(
    closed({ id: str(32), name: str(64), ip: opt(ip()), countryCode: opt(cc()), org: opt(str(128)) }),
    { maxItems: 8 },
  ),
});

const quality = () => oneOf('bad', 'poor', 'average', 'good', 'great');

const speedtest = closed({
  testedAt: isoDate(),
  downloadMbps: opt(nullable(num(0, 1e6))),
  uploadMbps: opt(nullable(num(0, 1e6))),
  latencyMs: opt(nullable(num(0, MAX_MS))),
  jitterMs: opt(nullable(num(0, MAX_MS))),
  loadedLatencyDownMs: opt(nullable(num(0, MAX_MS))),
  loadedLatencyUpMs: opt(nullable(num(0, MAX_MS))),
  scores: opt(closed({ streaming: opt(int(0, 10000)), gaming: opt(int(0, 10000)), rtc: opt(int(0, 10000)) })),
  qualities: opt(closed({ streaming: opt(quality()), gaming: opt(quality()), rtc: opt(quality()) })),
  connection: opt(closed({ ip: opt(ip()), colo: opt(str(8)), coloCountryCode: opt(cc()), coloCity: opt(str(64)) })),
});

const pingtest = closed({
  testedAt: isoDate(),
  target: ipOrDomain(),
  probes: Type.Array(
    closed({
      countryCode: opt(cc()),
      stats: closed({
        min: opt(num(0, MAX_MS)),
        max: opt(num(0, MAX_MS)),
        avg: opt(num(0, MAX_MS)),
        loss: opt(num(0, 100)),
        total: opt(int(0, 1000)),
        rcv: opt(int(0, 1000)),
        drop: opt(int(0, 1000)),
      }),
    }),
    { maxItems: 32 },
  ),
});

const hop = closed({
  n: int(1, 64),
  asn: opt(nullable(int(0, MAX_ASN))),
  host: opt(str(128)),
  ip: opt(ip()),
  lossPct: opt(num(0, 100)),
  drop: opt(int(0, 10000)),
  rcv: opt(int(0, 10000)),
  sntCount: opt(int(0, 10000)),
  lastMs: opt(num(0, MAX_MS)),
  avgMs: opt(num(0, MAX_MS)),
  bestMs: opt(num(0, MAX_MS)),
  worstMs: opt(num(0, MAX_MS)),
  stdevMs: opt(num(0, MAX_MS)),
  javgMs: opt(num(0, MAX_MS)),
});

const mtrtest = closed({
  testedAt: isoDate(),
  target: ipOrDomain(),
  probes: Type.Array(
    closed({
      countryCode: opt(cc()),
      city: opt(str(64)),
      network: opt(str(128)),
      asn: opt(int(0, MAX_ASN)),
      hops: Type.Array(hop, { maxItems: 64 }),
    }),
    { maxItems: 32 },
  ),
});

const ruletest = closed({
  testedAt: isoDate(),
  uniqueIPCount: int(0, 16),
  workers: Type.Array(closed({ id: int(1, 16), ip: opt(ip()), countryCode: opt(cc()), org: opt(str(128)) }), { maxItems: 16 }),
});

const software = () => closed({ name: opt(str(64)), version: opt(str(32)) });

const browserinfo = closed({
  testedAt: isoDate(),
  browser: opt(software()),
  os: opt(software()),
  engine: opt(software()),
  timezone: opt(str(64)),
  languages: opt(Type.Array(str(16), { maxItems: 16 })),
  display: opt(closed({ width: opt(int(0, 100000)), height: opt(int(0, 100000)), pixelRatio: opt(num(0, 100)) })),
  connection: opt(nullable(closed({ effectiveType: opt(str(16)), downlink: opt(num(0, 100000)), rtt: opt(int(0, MAX_MS)) }))),
});

const invisibility = closed({
  testedAt: isoDate(),
  ip: opt(ip()),
  scores: closed({ proxy: num(0, 100), vpn: num(0, 100) }),
  flags: Type.Array(closed({ key: str(32), flagged: bool() }), { maxItems: 20 }),
});

const enhanceddnsleak = closed({
  testedAt: isoDate(),
  rawCount: int(0, 100000),
  resolverCount: int(0, 10000),
  dnssec: oneOf('ok', 'partial', 'none'),
  queries: Type.Array(
    closed({
      ip: opt(ip()),
      countryCode: opt(cc()),
      asn: opt(str(16)),
      org: opt(str(128)),
      transport: opt(str(16)),
      ecs: opt(str(64)),
      do: opt(bool()),
      cd: opt(bool()),
    }),
    { maxItems: 128 },
  ),
});

const count = () => int(0, 64);

const persona = closed({
  testedAt: isoDate(),
  country: cc(),
  grade: oneOf('A', 'B', 'C', 'D', 'unknown'),
  score: nullable(int(0, 100)),
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
  results: Type.Array(
    closed({
      id: str(48),
      axis: oneOf('match', 'coherence', 'leak'),
      verdict: oneOf('match', 'mismatch', 'leak', 'unnatural', 'unknown', 'not-applicable'),
    }),
    { maxItems: 32 },
  ),
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
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The report envelope: all keys required. */
export const Report = closed({
  v: Type.Literal(1, { description: 'integer 1' }),
  generatedAt: isoDate(),
  /** The page's hostname, e.g. `localhost`. */
  origin: str(64),
  locale: str(8),
  sections: Sections,
});
export type Report = Static<typeof Report>;

export const checkReport = Compile(Report);
