import type { SectionBody } from '../../lib/report-sections.js';
import { isIp, isIpv4 } from '../../lib/ip.js';
import type { Session } from './session.js';

type Query = Session['queries'][number];
type SectionQuery = SectionBody<'enhanceddnsleak'>['queries'][number];

/** A resolver row, as the page and a shared report show it. */
export interface ResolverRow {
  ip: string;
  countryCode: string;
  asn: string;
  org: string;
  transport: string;
  ecs: string;
  do: boolean | null;
  cd: boolean | null;
}

/** ok: every query asked for DNSSEC and none switched validation off; partial: some did not; none: no query asked. */
export type Dnssec = 'ok' | 'partial' | 'none';

const REPORT_ROWS = 128;
const known = (text: unknown): string => (typeof text === 'string' && text !== 'N/A' ? text : '');
const code = (text: unknown): string => {
  const value = known(text).toUpperCase();
  return /^[A-Z]{2}$/.test(value) ? value : '';
};

function rowOf(query: Query): ResolverRow {
  const info = (query.ipInfo ?? {}) as Partial<Query['ipInfo']>;
  return {
    ip: typeof query.ip === 'string' ? query.ip : '',
    countryCode: code(info.country_code),
    asn: known(info.asn),
    org: known(info.org),
    transport: known(query.transport).toUpperCase(),
    ecs: known(query.ecs),
    do: typeof query.do === 'boolean' ? query.do : null,
    cd: typeof query.cd === 'boolean' ? query.cd : null,
  };
}

function compareIp(a: string, b: string): number {
  if (isIpv4(a) !== isIpv4(b)) return isIpv4(a) ? -1 : 1;
  if (isIpv4(a)) {
    const n = (ip: string) => ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    return n(a) - n(b);
  }
  return a.localeCompare(b);
}

/**
 * The session's queries as rows, in the reference's order: those that carried the visitor's subnet
 * (ECS) first, then by country, IPv4 before IPv6, then by address. `distinct` keeps one row per resolver
 * and subnet (a resolver asks once per record type).
 */
export function resolverRows(session: Session, distinct: boolean): ResolverRow[] {
  const rows = (Array.isArray(session.queries) ? session.queries : []).map(rowOf);
  const kept = distinct ? [...new Map(rows.map((row) => [`${row.ip}|${row.ecs}`, row])).values()] : rows;
  return kept.sort(
    (a, b) =>
      Number(Boolean(b.ecs)) - Number(Boolean(a.ecs)) ||
      a.countryCode.localeCompare(b.countryCode) ||
      compareIp(a.ip, b.ip),
  );
}

/** How far the resolvers that asked validate DNSSEC (a query without the DO bit does not ask for signatures). */
export function dnssecOf(rows: readonly Pick<ResolverRow, 'do' | 'cd'>[]): Dnssec {
  const asked = rows.filter((row) => row.do === true);
  if (rows.length === 0 || asked.length === 0) return 'none';
  return asked.length === rows.length && rows.every((row) => row.cd !== true) ? 'ok' : 'partial';
}

const cut = (text: string, length: number) => (text ? text.slice(0, length) : undefined);

function sectionQuery(row: ResolverRow): SectionQuery {
  return {
    ip: isIp(row.ip) ? row.ip : undefined,
    countryCode: row.countryCode,
    asn: cut(row.asn, 16),
    // The reference keeps a network's name only beside a country, as the other sections do.
    org: row.countryCode ? cut(row.org, 128) : undefined,
    transport: cut(row.transport, 16),
    ecs: cut(row.ecs, 64),
    do: row.do ?? undefined,
    cd: row.cd ?? undefined,
  };
}

const count = (value: unknown, most: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, most) : 0;

/** The report's `enhanceddnsleak` section: every query (up to 128), the counts and the DNSSEC summary. */
export function enhancedDnsLeakSection(session: Session): SectionBody<'enhanceddnsleak'> {
  const rows = resolverRows(session, false);
  return {
    rawCount: count(session.rawCount, 100_000),
    resolverCount: count(session.resolverCount, 10_000),
    dnssec: dnssecOf(rows),
    queries: rows.slice(0, REPORT_ROWS).map(sectionQuery),
  };
}

/** A shared report's queries as rows again. */
export function reportRows(section: SectionBody<'enhanceddnsleak'>): ResolverRow[] {
  return section.queries.map((query) => ({
    ip: query.ip ?? '',
    countryCode: query.countryCode ?? '',
    asn: query.asn ?? '',
    org: query.org ?? '',
    transport: query.transport ?? '',
    ecs: query.ecs ?? '',
    do: query.do ?? null,
    cd: query.cd ?? null,
  }));
}
