// The answers the site reads: the service's own response schemas (contract/),
// as types only, so nothing of TypeBox reaches the bundle.
export type { ClientIp } from '@contract/client-ip.js';
export type { Configs } from '@contract/configs.js';
export type {
  AsnHistory,
  AsnProfile,
  Connectivity,
  HistoryRow,
  NodeType,
  OutageEvent,
  Outages,
} from '@contract/asn.js';
export type { Detail as StatusDetail, Indicator, Overview as StatusOverview } from '@contract/service-status.js';
export type { Report, ReportCreated, StoredReport } from '@contract/report.js';
import type { ReportSections } from '../lib/report-sections';

// Not yet in contract/: only the fields the site reads are typed.

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

/** A card of the report's `ipinfo` section (contract 19.3). */
export type ReportCard = NonNullable<ReportSections['ipinfo']>['cards'][number];
