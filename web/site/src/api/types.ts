import type { HistoryRow } from '../../../../routes/asn/history-rows';
import type { ReportSections } from '../lib/report-sections';

// Answer shapes the site reads, as the frontend contract describes them
// (web/site/README.md names the sections). Only the fields the site reads are typed.

export interface Configs {
  map: boolean;
  ipInfo: boolean;
  ipChecking: boolean;
  ip2location: boolean;
  originalSite: boolean;
  cloudFlare: boolean;
  ipapiis: boolean;
  reportSharing: boolean;
}

export interface ClientIp {
  ip: string;
  family: 'IPv4' | 'IPv6';
}

/** A gated geo-private field: the companion API's sentinel instead of a value. */
export type Gate = 'sign_in_required' | 'quota_exceeded';

export interface AdvancedData {
  score: number | 'unknown' | Gate;
  tags: { isNative: boolean; isProxyOrVPN: boolean } | Gate;
  proxyProtocol: string;
  proxyProvider: string;
  operatorType: string;
}

export interface GeoRecord {
  ip?: string | null;
  country: string | null;
  country_name?: string | null;
  region?: string | null;
  city?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  timezone?: string | null;
  org?: string | null;
  asn?: string | null;
  isHosting?: boolean;
  isProxy?: boolean;
  advancedData?: AdvancedData;
  error?: unknown;
}

export type WhoisAnswer = Record<string, unknown> & { __raw?: unknown };

export interface DnsRow {
  provider: string;
  type: string;
  country: string;
  result: string[] | string;
}
export interface DnsAnswer {
  results: DnsRow[];
}

export type Tier = 'confirmed' | 'likely' | 'signs' | 'ok';
export interface CensorshipCountry {
  country: string;
  tier: Tier;
  measurements: number;
  anomaly: number;
  confirmed: number;
  methods: Record<string, number>;
}
export interface CensorshipAnswer {
  since: string;
  until: string;
  countries: CensorshipCountry[];
}

export interface ProbeCountries {
  countries: string[];
  continents: Array<{ key: string; countries: string[] }>;
}

export interface MacAnswer {
  success: boolean;
  error?: string;
  macPrefix: string;
  blockStart: string;
  blockEnd: string;
  blockSize: number | string;
  blockType: string;
  company: string;
  country: string;
  address: string;
  isRand: boolean;
  isPrivate: boolean;
  isMulticast: boolean;
  isUnicast: boolean;
  isLocal: boolean;
  isGlobal: boolean;
}

export interface AsnProfile {
  asnName?: string;
  asnCountryCode?: string;
  asnOrgName?: string;
  estimatedUsers?: string;
  IPv4_Pct?: string;
  IPv6_Pct?: string;
  HTTP_Pct?: string;
  HTTPS_Pct?: string;
  Desktop_Pct?: string;
  Mobile_Pct?: string;
  Bot_Pct?: string;
  Human_Pct?: string;
  /** Counts of announced prefixes; null when that segment failed. */
  prefixes?: { ipv4: number | null; ipv6: number | null } | null;
  relationships?: { upstreams: number; downstreams: number; peers: number; source: 'radar' | 'local' } | null;
  /** Radar's speed-test aggregates: bandwidth in Mbps, latency and jitter in ms, packet loss in percent. */
  speed?: Record<string, number> | null;
}

export type NodeType = 'origin' | 'origin-tier1' | 'tier1' | 'intermediate';
export interface Connectivity {
  nodes: Array<{ asn: number; type: NodeType; name: string | null }>;
  edges: Array<{ from: number; to: number }>;
}

// The service's own definition of a row (a type only: nothing of the service reaches the bundle).
export type { HistoryRow };
export interface AsnHistory {
  history: HistoryRow[];
}

export type Indicator = 'none' | 'minor' | 'major' | 'critical' | 'maintenance' | 'unknown';
export interface StatusOverview {
  /** End of the service's last round of checks; null before the first. */
  updatedAt: string | null;
  providers: Array<{ id: string; indicator: string; page: string }>;
}
export interface StatusDetail {
  components: Array<{ name: string; status: string }>;
  incidents: Array<{
    id: string;
    name: string;
    status: string | null;
    impact: string;
    startedAt: string | null;
    url: string;
  }>;
}

export interface OutageEvent {
  kind: 'outage' | 'anomaly';
  id: string;
  startDate: string;
  endDate: string | null;
  locations: string[];
  asns: Array<{ asn: number; name: string }>;
  cause: string | null;
  level: string | null;
  description: string | null;
  scope: string | null;
}
export interface Outages {
  events: OutageEvent[];
}

/** A card of the report's `ipinfo` section (contract 19.3). */
export type ReportCard = NonNullable<ReportSections['ipinfo']>['cards'][number];

export interface Report {
  v: 1;
  generatedAt: string;
  origin: string;
  locale: string;
  sections: ReportSections;
}

export interface StoredReport {
  expiresAt?: string;
  report: Report;
}

export interface ReportCreated {
  id: string;
  expiresAt: string;
}
