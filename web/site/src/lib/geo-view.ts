import type { AdvancedData, Gate, GeoRecord, ReportCard } from '../api/types';
import { countryCode } from './country';

export type ProxyVerdict = 'yes' | 'maybe' | 'no';
export type IpType = 'business' | 'residential' | 'wireless' | 'hosting';

export interface Advanced {
  score: number | null;
  native: boolean | null;
  proxy: ProxyVerdict | null;
  protocol: string;
  provider: string;
  type: IpType | null;
}

/** What one card shows, from a live geo answer or from a shared report. */
export interface CardView {
  source: string;
  ip: string;
  countryCode: string;
  /** The source's own country name, for when it sends no code. */
  countryName: string;
  region: string;
  city: string;
  timezone: string;
  latitude: number | null;
  longitude: number | null;
  asn: string;
  org: string;
  hosting: boolean | null;
  proxy: boolean | null;
  advanced: Advanced | Gate | null;
}

/** `null`, `''` and `"N/A"` all mean "the source does not know". */
function text(value: unknown): string {
  return typeof value === 'string' && value !== 'N/A' ? value.trim() : '';
}

function coordinate(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

const IP_TYPES: Record<string, IpType> = {
  Business: 'business',
  Residential: 'residential',
  Wireless: 'wireless',
  Hosting: 'hosting',
};

function advancedOf(data: AdvancedData): Advanced | Gate {
  // The companion API gates every field with the same sentinel string.
  if (data.score === 'sign_in_required' || data.score === 'quota_exceeded') return data.score;
  const tags = typeof data.tags === 'object' && data.tags !== null ? data.tags : null;
  const protocol = text(data.proxyProtocol);
  const provider = text(data.proxyProvider);
  return {
    score: typeof data.score === 'number' ? Math.max(0, Math.min(100, data.score)) : null,
    native: tags ? tags.isNative : null,
    proxy: tags ? (tags.isProxyOrVPN ? (protocol && protocol !== 'unknown' ? 'yes' : 'maybe') : 'no') : null,
    protocol: protocol === 'unknown' ? '' : protocol,
    provider: provider === 'unknown' ? '' : provider,
    type: IP_TYPES[data.operatorType] ?? null,
  };
}

/** A live geo answer as a card. `country` carries the ISO code; `country_name` is only its fallback. */
export function fromRecord(
  source: string,
  ip: string,
  record: GeoRecord,
  extra: 'advanced' | 'flags' | null,
): CardView {
  const asn = text(record.asn);
  return {
    source,
    ip,
    countryCode: countryCode(record.country),
    countryName: text(record.country_name),
    region: text(record.region),
    city: text(record.city),
    timezone: text(record.timezone),
    latitude: coordinate(record.latitude),
    longitude: coordinate(record.longitude),
    asn: /^AS\d+$/i.test(asn) ? asn.toUpperCase() : '',
    org: text(record.org),
    hosting: extra === 'flags' && typeof record.isHosting === 'boolean' ? record.isHosting : null,
    proxy: extra === 'flags' && typeof record.isProxy === 'boolean' ? record.isProxy : null,
    advanced:
      extra === 'advanced' && record.advancedData && typeof record.advancedData === 'object'
        ? advancedOf(record.advancedData)
        : null,
  };
}

/** A shared report's card as a card (the report keeps no coordinates or flags). */
export function fromReportCard(card: ReportCard): CardView {
  const advanced: Advanced | null =
    card.isProxy || card.ipType || card.nativeIP !== undefined || card.qualityScore !== undefined
      ? {
          score: card.qualityScore ?? null,
          native: card.nativeIP ?? null,
          proxy: card.isProxy ?? null,
          protocol: card.proxyProtocol ?? '',
          provider: card.proxyProvider ?? '',
          type: card.ipType ?? null,
        }
      : null;
  return {
    source: card.source,
    ip: card.ip ?? '',
    countryCode: countryCode(card.countryCode),
    countryName: '',
    region: card.region ?? '',
    city: card.city ?? '',
    timezone: card.timezone ?? '',
    latitude: null,
    longitude: null,
    asn: card.asn ?? '',
    org: card.isp ?? '',
    hosting: null,
    proxy: null,
    advanced,
  };
}

const TIMEZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** A card in the report whitelist's shape (contract 19.3): unknown values left out, texts cut to their limits. */
export function toReportCard(view: CardView): ReportCard {
  const card: ReportCard = { source: view.source.slice(0, 64), countryCode: view.countryCode };
  if (view.ip) card.ip = view.ip;
  if (view.region) card.region = view.region.slice(0, 64);
  if (view.city) card.city = view.city.slice(0, 64);
  if (view.timezone.length <= 64 && TIMEZONE.test(view.timezone)) card.timezone = view.timezone;
  if (view.asn && view.asn.length <= 16) card.asn = view.asn;
  if (view.org) card.isp = view.org.slice(0, 128);
  const advanced = view.advanced;
  if (advanced && typeof advanced === 'object') {
    if (advanced.proxy) card.isProxy = advanced.proxy;
    if (advanced.type) card.ipType = advanced.type;
    if (advanced.native !== null) card.nativeIP = advanced.native;
    if (advanced.score !== null) card.qualityScore = advanced.score;
    if (advanced.protocol) card.proxyProtocol = advanced.protocol.slice(0, 32);
    if (advanced.provider) card.proxyProvider = advanced.provider.slice(0, 64);
  }
  return card;
}
