import type { CaaRecord, MxRecord, NaptrRecord, SoaRecord, SrvRecord } from 'node:dns';
import type { DnsRecordType } from '../../schemas/guards.js';

/** What one row shows: the answers as strings, or one string (plain-DNS MX, and `N/A` for nothing). */
export type RowResult = string[] | string;

/** The site's marker for no answer at all, shown dimmed. */
export const NO_ANSWER = 'N/A';

/**
 * What a resolver said, beside the contract's `result` (where all but the first read "N/A"): records; the name
 * does not exist (NXDOMAIN); the name exists without records of the type (NODATA); or no usable answer
 * (a timeout, SERVFAIL, a refusal, a broken body).
 */
export type RowStatus = 'records' | 'nxdomain' | 'nodata' | 'failed';

/** One row's answer: the contract's `result` and what it means. */
export interface RowAnswer {
  result: RowResult;
  status: RowStatus;
}

export const FAILED: RowAnswer = { result: NO_ANSWER, status: 'failed' };

// node:dns's codes for an answer that says there is nothing: NXDOMAIN, and NODATA.
const NOTHING_CODES: Record<string, RowStatus> = { ENOTFOUND: 'nxdomain', ENODATA: 'nodata' };

/** A plain-DNS failure that is an answer (NXDOMAIN, NODATA), or undefined for a real failure. */
export function plainNothing(err: unknown): RowAnswer | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  const status = typeof code === 'string' ? NOTHING_CODES[code] : undefined;
  return status ? { result: NO_ANSWER, status } : undefined;
}

const fqdn = (name: string) => (name === '' ? '.' : name.endsWith('.') ? name : `${name}.`);
const quote = (text: string) => `"${text.replace(/(["\\])/g, '\\$1')}"`;

/**
 * node:dns records as the site reads them: addresses and CNAME/NS/PTR names
 * as node gives them, one entry per TXT record (its character-strings joined,
 * as DoH resolvers that unquote write it), all MX records in one string
 * ("10 mx1.example.com., 20 mx2.example.com."), and the other types in
 * zone-file form, as DoH resolvers write their `data`.
 */
export function plainResult(type: DnsRecordType, records: unknown): RowAnswer {
  const answers = plainAnswers(type, records);
  if (answers.length === 0) return { result: NO_ANSWER, status: 'nodata' };
  return { result: type === 'MX' ? answers.join(', ') : answers, status: 'records' };
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
      return (records as string[][]).map((strings) => strings.join(''));
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

// The DoH JSON `type` number of each record type the route asks.
const TYPE_NUMBERS: Record<DnsRecordType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  CAA: 257,
};

/**
 * A TXT record's data as one text: some resolvers write it as zone-file
 * character-strings (`"google-site-" "verification=abc123"`, with `\"`,
 * `\\` and `\DDD` escapes), others already joined and unquoted; both
 * become the joined text, as plain DNS gives it.
 */
export function txtText(data: string): string {
  if (!data.startsWith('"')) return data;
  // \DDD is one byte of the text's UTF-8, so the bytes are gathered and decoded once.
  const bytes: number[] = [];
  let quoted = false;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c === '"') {
      quoted = !quoted;
    } else if (!quoted) {
      continue;
    } else if (c === '\\' && /^\d{3}$/.test(data.slice(i + 1, i + 4))) {
      bytes.push(Number(data.slice(i + 1, i + 4)) & 0xff);
      i += 3;
    } else {
      if (c === '\\' && i + 1 < data.length) i++;
      const char = String.fromCodePoint(data.codePointAt(i) ?? 0);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length - 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

// DoH JSON's Status is the DNS RCODE: 0 NOERROR, 3 NXDOMAIN; any other is a failure (SERVFAIL, REFUSED...).
const NOERROR = 0;
const NXDOMAIN = 3;

/**
 * A DoH JSON answer as the site reads it: the `data` of every Answer record
 * of the type asked (a CNAME chain's steps are left out, as plain DNS leaves
 * them out, so one record set compares equal whatever the transport; TXT
 * unquoted by txtText), `["N/A"]` when the answer holds none (NODATA,
 * NXDOMAIN, told apart by `status`), `"N/A"` when the body is not a DoH JSON
 * answer.
 */
export function dohResult(body: unknown, type: DnsRecordType): RowAnswer {
  const status = (body as { Status?: unknown } | null)?.Status;
  if (typeof body !== 'object' || body === null || typeof status !== 'number') return FAILED;
  const answer = (body as { Answer?: unknown }).Answer;
  if (answer === undefined) {
    return { result: [NO_ANSWER], status: status === NXDOMAIN ? 'nxdomain' : status === NOERROR ? 'nodata' : 'failed' };
  }
  const records = (Array.isArray(answer) ? answer : []).filter(
    (record: unknown): record is { type?: unknown; data?: unknown } => typeof record === 'object' && record !== null,
  );
  const data = records
    .filter((record) => record.type === TYPE_NUMBERS[type] && typeof record.data === 'string')
    .map((record) => (type === 'TXT' ? txtText(record.data as string) : (record.data as string)));
  if (data.length) return { result: data, status: 'records' };
  // A CNAME chain without a record of the type at its end: the name exists, with nothing of this type.
  return records.some((record) => typeof record.data === 'string') ? { result: [NO_ANSWER], status: 'nodata' } : FAILED;
}
