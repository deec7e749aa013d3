import type { CaaRecord, MxRecord, NaptrRecord, SoaRecord, SrvRecord } from 'node:dns';
import type { DnsRecordType } from '../../schemas/guards.js';

/** What one row shows: the answers as strings, or one string (plain-DNS MX, and `N/A` for nothing). */
export type RowResult = string[] | string;

/** The site's marker for no answer at all, shown dimmed. */
export const NO_ANSWER = 'N/A';

const fqdn = (name: string) => (name === '' ? '.' : name.endsWith('.') ? name : `${name}.`);
const quote = (text: string) => `"${text.replace(/(["\\])/g, '\\$1')}"`;

/**
 * node:dns records as the site reads them: addresses and CNAME/NS/PTR names
 * as node gives them, one entry per TXT character-string, all MX records in
 * one string ("10 mx1.example.com., 20 mx2.example.com."), and the other
 * types in zone-file form, as DoH resolvers write their `data`.
 */
export function plainResult(type: DnsRecordType, records: unknown): RowResult {
  const answers = plainAnswers(type, records);
  if (answers.length === 0) return NO_ANSWER;
  return type === 'MX' ? answers.join(', ') : answers;
}

function plainAnswers(type: DnsRecordType, records: unknown): string[] {
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return records as string[];
    case 'TXT':
      return (records as string[][]).flat();
    case 'MX':
      return (records as MxRecord[]).map((r) => `${r.priority} ${fqdn(r.exchange)}`);
    case 'SRV':
      return (records as SrvRecord[]).map((r) => `${r.priority} ${r.weight} ${r.port} ${fqdn(r.name)}`);
    case 'SOA': {
      const r = records as SoaRecord;
      return [`${fqdn(r.nsname)} ${fqdn(r.hostmaster)} ${r.serial} ${r.refresh} ${r.retry} ${r.expire} ${r.minttl}`];
    }
    case 'CAA':
      return (records as CaaRecord[]).map((r) => {
        const [tag = '', value = ''] = Object.entries(r).find(([key]) => key !== 'critical') ?? [];
        return `${r.critical} ${tag} ${quote(String(value))}`;
      });
    case 'NAPTR':
      return (records as NaptrRecord[]).map(
        (r) =>
          `${r.order} ${r.preference} ${quote(r.flags)} ${quote(r.service)} ${quote(r.regexp)} ${fqdn(r.replacement)}`,
      );
  }
}

/**
 * A DoH JSON answer as the site reads it: the `data` of every Answer record
 * (CNAME steps included), `["N/A"]` when the answer has no Answer section
 * (NODATA, NXDOMAIN), `"N/A"` when the body is not a DoH JSON answer.
 */
export function dohResult(body: unknown): RowResult {
  if (typeof body !== 'object' || body === null || typeof (body as { Status?: unknown }).Status !== 'number') {
    return NO_ANSWER;
  }
  const answer = (body as { Answer?: unknown }).Answer;
  if (answer === undefined) return [NO_ANSWER];
  const data = (Array.isArray(answer) ? answer : [])
    .map((record: unknown) =>
      typeof record === 'object' && record !== null ? (record as { data?: unknown }).data : undefined,
    )
    .filter((d): d is string => typeof d === 'string');
  return data.length ? data : NO_ANSWER;
}
