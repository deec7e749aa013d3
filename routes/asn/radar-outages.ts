import { radarGet, RadarFailed, type RadarContext } from './radar-client.js';
import { nonEmptyString } from '../../lib/json-values.js';
import type { OutageEvent, Outages } from '../../contract/asn.js';

const DATE_RANGE = '30d';
const OUTAGES_QUERY = { dateRange: DATE_RANGE, limit: '50', format: 'json' };
const ANOMALIES_QUERY = { dateRange: DATE_RANGE, limit: '100', format: 'json' };
const MAX_EVENTS = 30;
// Radar often promotes a detected anomaly to an outage annotation: an anomaly
// sharing a location or ASN with an outage that started this close to it is
// the same event.
const SAME_EVENT_MS = 24 * 60 * 60 * 1000;

interface Details {
  code?: unknown;
  asn?: unknown;
  name?: unknown;
}
interface RadarOutage {
  id?: unknown;
  description?: unknown;
  scope?: unknown;
  startDate?: unknown;
  endDate?: unknown;
  locations?: unknown;
  locationsDetails?: Details[];
  asns?: unknown;
  asnsDetails?: Details[];
  linkedUrl?: unknown;
  outage?: { outageCause?: unknown; outageType?: unknown };
}
interface RadarAnomaly {
  uuid?: unknown;
  startDate?: unknown;
  endDate?: unknown;
  locationDetails?: Details;
  asnDetails?: Details;
}

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const isDate = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

function countryCodes(details: Details[], fallback: unknown): string[] {
  const codes = details.length > 0 ? details.map((d) => d?.code) : list<unknown>(fallback);
  return codes.filter((c): c is string => typeof c === 'string' && c !== '');
}

function asnEntry(detail: Details | undefined): OutageEvent['asns'][number] | null {
  const asn = Number(detail?.asn);
  if (!Number.isInteger(asn) || asn <= 0) return null;
  return { asn, name: nonEmptyString(detail?.name) ?? '' };
}

function asnEntries(details: Details[], fallback: unknown): OutageEvent['asns'] {
  const entries = details.length > 0 ? details.map(asnEntry) : list<unknown>(fallback).map((asn) => asnEntry({ asn }));
  return entries.filter((e): e is OutageEvent['asns'][number] => e !== null);
}

function fromOutage(a: RadarOutage): OutageEvent | null {
  if ((typeof a.id !== 'string' && typeof a.id !== 'number') || !isDate(a.startDate)) return null;
  return {
    kind: 'outage',
    id: `o-${a.id}`,
    startDate: a.startDate,
    endDate: nonEmptyString(a.endDate),
    locations: countryCodes(list(a.locationsDetails), a.locations),
    asns: asnEntries(list(a.asnsDetails), a.asns),
    cause: nonEmptyString(a.outage?.outageCause) ?? 'UNKNOWN',
    level: nonEmptyString(a.outage?.outageType),
    description: nonEmptyString(a.description),
    scope: nonEmptyString(a.scope),
    linkedUrl: nonEmptyString(a.linkedUrl),
  };
}

function fromAnomaly(a: RadarAnomaly): OutageEvent | null {
  if (typeof a.uuid !== 'string' || !isDate(a.startDate)) return null;
  const asn = asnEntry(a.asnDetails);
  return {
    kind: 'anomaly',
    id: `a-${a.uuid}`,
    startDate: a.startDate,
    endDate: nonEmptyString(a.endDate),
    locations: countryCodes(a.locationDetails ? [a.locationDetails] : [], undefined),
    asns: asn ? [asn] : [],
    cause: null,
    level: null,
    description: null,
    scope: null,
    linkedUrl: null,
  };
}

function sameEvent(anomaly: OutageEvent, outage: OutageEvent): boolean {
  const shared =
    anomaly.locations.some((c) => outage.locations.includes(c)) ||
    anomaly.asns.some((a) => outage.asns.some((o) => o.asn === a.asn));
  return shared && Math.abs(Date.parse(anomaly.startDate) - Date.parse(outage.startDate)) <= SAME_EVENT_MS;
}

/** Ongoing events first, then the newest start first. */
function byDisplayOrder(a: OutageEvent, b: OutageEvent): number {
  if ((a.endDate === null) !== (b.endDate === null)) return a.endDate === null ? -1 : 1;
  return Date.parse(b.startDate) - Date.parse(a.startDate);
}

/** The two sources merged: outages, plus the anomalies that are not one of them, in display order. */
function mergeEvents(outages: OutageEvent[], anomalies: OutageEvent[]): OutageEvent[] {
  const kept = anomalies.filter((anomaly) => !outages.some((outage) => sameEvent(anomaly, outage)));
  return [...outages, ...kept].sort(byDisplayOrder).slice(0, MAX_EVENTS);
}

/**
 * view=outages: the last 30 days of Radar's outage annotations and traffic
 * anomalies as one feed. One source failing is logged and the other served;
 * both failing is a 500.
 */
export async function outagesFeed(ctx: RadarContext): Promise<Outages> {
  const [outages, anomalies] = await Promise.allSettled([
    radarGet<{ annotations?: unknown }>(ctx.upstream, ctx.key, 'annotations/outages', OUTAGES_QUERY),
    radarGet<{ trafficAnomalies?: unknown }>(ctx.upstream, ctx.key, 'traffic_anomalies', ANOMALIES_QUERY),
  ]);
  if (outages.status === 'rejected' && anomalies.status === 'rejected') {
    throw new RadarFailed('both radar outage sources failed', {
      outagesErr: outages.reason,
      anomaliesErr: anomalies.reason,
    });
  }
  if (outages.status === 'rejected') {
    ctx.failures.logUpstreamFailure(
      { err: outages.reason, source: 'annotations/outages' },
      'radar outage source failed',
    );
  }
  if (anomalies.status === 'rejected') {
    ctx.failures.logUpstreamFailure(
      { err: anomalies.reason, source: 'traffic_anomalies' },
      'radar outage source failed',
    );
  }
  const outageEvents =
    outages.status === 'fulfilled' ? list<RadarOutage>(outages.value.annotations).map(fromOutage) : [];
  const anomalyEvents =
    anomalies.status === 'fulfilled' ? list<RadarAnomaly>(anomalies.value.trafficAnomalies).map(fromAnomaly) : [];
  const present = (e: OutageEvent | null): e is OutageEvent => e !== null;
  return { events: mergeEvents(outageEvents.filter(present), anomalyEvents.filter(present)) };
}
