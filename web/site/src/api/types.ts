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
export type { CensorshipAnswer, CensorshipCountry, Tier } from '@contract/censorship.js';
export type { DnsResolverAnswer as DnsAnswer, DnsRow } from '@contract/dnsresolver.js';
export type { ProbeCountries } from '@contract/probe-countries.js';
export type { Report, ReportCreated, StoredReport } from '@contract/report.js';
export type { WhoisResponse as WhoisAnswer } from '@contract/whois.js';
import type { MacVendor, NoVendor } from '@contract/macchecker.js';
import type { ReportSections } from '../lib/report-sections';

/** The MAC lookup's answer; the page reads `error` of either branch, and a vendor's answer has none. */
export type MacAnswer = (MacVendor & { error?: never }) | NoVendor;

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

/** A card of the report's `ipinfo` section (contract 19.3). */
export type ReportCard = NonNullable<ReportSections['ipinfo']>['cards'][number];
