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
import type { AdvancedData, GatedState, GeoRecord as GeoFields, KeyedBRecord, PrivateRecord } from '@contract/geo.js';
import type { MacVendor, NoVendor } from '@contract/macchecker.js';
import type { ReportSections } from '../lib/report-sections';

/** The MAC lookup's answer; the page reads `error` of either branch, and a vendor's answer has none. */
export type MacAnswer = (MacVendor & { error?: never }) | NoVendor;

/** A gated geo-private field: the companion API's sentinel instead of a value. */
export type Gate = GatedState;
export type { AdvancedData };

/**
 * Any geo route's record: the common fields, with the keyed-b flags or the
 * private verdict where that route adds them; a 200 carrying `error` is a
 * failed lookup (frontend contract 1.1).
 */
export type GeoRecord = GeoFields &
  Partial<Pick<KeyedBRecord, 'isHosting' | 'isProxy'> & Pick<PrivateRecord, 'advancedData'>> & { error?: unknown };

/** A card of the report's `ipinfo` section (contract 19.3). */
export type ReportCard = NonNullable<ReportSections['ipinfo']>['cards'][number];
