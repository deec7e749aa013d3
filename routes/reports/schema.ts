import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';

// The whitelist of what a shared report may hold: the facts a
// network-diagnostics page shows, each typed and bounded. Strings are either
// fixed vocabularies or short labels without control characters or markup, so
// nothing free-form is ever stored.

const strict = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: false });
const Label = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000-\\u001f\\u007f<>]*$' });
const Opt = Type.Optional;

const Ip = Type.String({ minLength: 2, maxLength: 45, pattern: '^[0-9A-Fa-f:.]+$' });
const Hostname = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9_.-]+$' });
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });
const TimeZone = Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_+/-]+$' });
const Asn = Type.Integer({ minimum: 0, maximum: 4294967295 });
const Millis = Type.Number({ minimum: 0, maximum: 120000 });
const Percent = Type.Number({ minimum: 0, maximum: 100 });

// The spec's geo routes, one card per source the page queried.
const GeoSource = Type.Union([
  Type.Literal('geo-keyed-a'),
  Type.Literal('geo-free-a'),
  Type.Literal('geo-free-b'),
  Type.Literal('geo-keyed-b'),
  Type.Literal('geo-keyed-c'),
  Type.Literal('geo-local'),
  Type.Literal('geo-private'),
]);
export const MAX_IP_CARDS = 16;
export const MAX_DNS_SERVERS = 100;
export const MAX_WEBRTC_CANDIDATES = 50;
export const MAX_CONNECTIVITY = 500;
export const MAX_LATENCY = 500;

const IpCard = strict({
  source: GeoSource,
  ip: Ip,
  city: Opt(Label(100)),
  region: Opt(Label(100)),
  country_name: Opt(Label(100)),
  country_code: Opt(CountryCode),
  latitude: Opt(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Opt(Type.Number({ minimum: -180, maximum: 180 })),
  timezone: Opt(TimeZone),
  asn: Opt(Asn),
  org: Opt(Label(200)),
  isHosting: Opt(Type.Boolean()),
  isProxy: Opt(Type.Boolean()),
});

const DnsLeak = strict({
  leaking: Type.Boolean(),
  servers: Type.Array(
    strict({ ip: Ip, country_code: Opt(CountryCode), asn: Opt(Asn), org: Opt(Label(200)) }),
    { maxItems: MAX_DNS_SERVERS },
  ),
});

const WebRtc = strict({
  supported: Type.Boolean(),
  leaking: Opt(Type.Boolean()),
  candidates: Type.Array(
    strict({
      ip: Ip,
      type: Type.Union([Type.Literal('host'), Type.Literal('srflx'), Type.Literal('prflx'), Type.Literal('relay')]),
      protocol: Type.Union([Type.Literal('udp'), Type.Literal('tcp')]),
      stunServer: Opt(Hostname),
    }),
    { maxItems: MAX_WEBRTC_CANDIDATES },
  ),
});

const Connectivity = strict({
  target: Hostname,
  status: Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('timeout'), Type.Literal('skipped')]),
  latencyMs: Opt(Millis),
});

const Latency = strict({
  target: Hostname,
  region: Opt(Type.String({ pattern: '^[A-Za-z]{2}$' })),
  minMs: Millis,
  avgMs: Millis,
  maxMs: Millis,
  lossPercent: Opt(Percent),
});

const Browser = strict({
  userAgent: Opt(Label(512)),
  language: Opt(Type.String({ maxLength: 35, pattern: '^[A-Za-z0-9-]+$' })),
  languages: Opt(Type.Array(Type.String({ maxLength: 35, pattern: '^[A-Za-z0-9-]+$' }), { maxItems: 20 })),
  timezone: Opt(TimeZone),
  platform: Opt(Label(64)),
  screen: Opt(
    strict({
      width: Type.Integer({ minimum: 0, maximum: 32768 }),
      height: Type.Integer({ minimum: 0, maximum: 32768 }),
      pixelRatio: Opt(Type.Number({ minimum: 0, maximum: 16 })),
      colorDepth: Opt(Type.Integer({ minimum: 0, maximum: 64 })),
    }),
  ),
  cookiesEnabled: Opt(Type.Boolean()),
  doNotTrack: Opt(Type.Boolean()),
});

export const Report = strict({
  version: Type.Literal(1),
  createdAt: Type.String({ maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T[0-9:.]+(?:Z|[+-]\\d{2}:\\d{2})$' }),
  ipCards: Type.Array(IpCard, { maxItems: MAX_IP_CARDS }),
  dnsLeak: Opt(DnsLeak),
  webrtc: Opt(WebRtc),
  connectivity: Opt(Type.Array(Connectivity, { maxItems: MAX_CONNECTIVITY })),
  latency: Opt(Type.Array(Latency, { maxItems: MAX_LATENCY })),
  browser: Opt(Browser),
});
export type Report = Static<typeof Report>;

// ttlDays is read leniently (anything but 1, 3 or 7 becomes 1), so it is not part of the strict check.
const ReportRequest = strict({ report: Report, ttlDays: Opt(Type.Unknown()) });

export const checkReportRequest = Compile(ReportRequest);

const MAX_DETAILS = 20;

export interface Detail {
  path: string;
  message: string;
}

/**
 * One schema failure as details, each at the JSON pointer of the offending
 * value. TypeBox reports a missing or an unknown key on the object holding it
 * (and an unknown one again as "schema is false"); a client needs the key's own path.
 */
function toDetails(error: TLocalizedValidationError): Detail[] {
  if (error.keyword === 'required') return error.params.requiredProperties.map((key) => ({ path: `${error.instancePath}/${key}`, message: 'is required' }));
  if (error.keyword === 'additionalProperties') return error.params.additionalProperties.map((key) => ({ path: `${error.instancePath}/${key}`, message: 'is not allowed' }));
  if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) return [];
  return [{ path: error.instancePath || '/', message: error.message }];
}

/** The first few schema failures, each with the JSON pointer of the offending value. */
export function reportErrors(body: unknown): Detail[] {
  return checkReportRequest.Errors(body).flatMap(toDetails).slice(0, MAX_DETAILS);
}
