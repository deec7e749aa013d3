import type { CaaRecord, MxRecord, NaptrRecord, SoaRecord, SrvRecord } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { DnsRecordType } from '../../schemas/guards.js';

/**
 * One string form per record type, shared by plain DNS (node:dns objects) and
 * DNS-over-HTTPS JSON (presentation-format `data`), so answers compare as
 * strings: names lower-case without the trailing dot, addresses in their
 * canonical form, TXT as its joined text, the rest as zone-file fields.
 */

export const TYPE_CODES: Record<DnsRecordType, number> = {
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

export function name(value: string): string {
  const bare = value.trim().toLowerCase().replace(/\.$/, '');
  return bare === '' ? '.' : bare;
}

export function address(value: string): string {
  try {
    return ipaddr.parse(value.trim()).toString();
  } catch {
    return value.trim();
  }
}

const quote = (text: string) => `"${text.replace(/(["\\])/g, '\\$1')}"`;

/** Splits presentation-format data into fields, unquoting "…" strings. */
export function tokens(data: string): string[] {
  const out: string[] = [];
  for (const match of data.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    out.push(match[1] !== undefined ? match[1].replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d))).replace(/\\(.)/g, '$1') : match[2]!);
  }
  return out;
}

/** RFC 3597 `\# LEN HEX…` data as bytes, or undefined when the data is in the type's own format. */
function generic(data: string): Buffer | undefined {
  const match = /^\\#\s+\d+\s+([0-9a-f\s]*)$/i.exec(data.trim());
  return match ? Buffer.from(match[1]!.replace(/\s+/g, ''), 'hex') : undefined;
}

/** A DoH JSON answer's `data` in this module's form. */
export function fromDoh(type: DnsRecordType, data: string): string {
  switch (type) {
    case 'A':
    case 'AAAA':
      return address(data);
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return name(data);
    case 'TXT':
      return data.trim().startsWith('"') ? tokens(data).join('') : data;
    case 'MX': {
      const [priority = '', exchange = ''] = tokens(data);
      return `${priority} ${name(exchange)}`;
    }
    case 'SRV': {
      const [priority = '', weight = '', port = '', target = ''] = tokens(data);
      return `${priority} ${weight} ${port} ${name(target)}`;
    }
    case 'SOA': {
      const [ns = '', mbox = '', ...numbers] = tokens(data);
      return [name(ns), name(mbox), ...numbers].join(' ');
    }
    case 'CAA': {
      const bytes = generic(data);
      if (bytes && bytes.length >= 2) {
        const tagLength = bytes[1]!;
        return `${bytes[0]} ${bytes.subarray(2, 2 + tagLength).toString('latin1').toLowerCase()} ${quote(bytes.subarray(2 + tagLength).toString('utf8'))}`;
      }
      const [flags = '', tag = '', ...value] = tokens(data);
      return `${flags} ${tag.toLowerCase()} ${quote(value.join(' '))}`;
    }
    case 'NAPTR': {
      const [order = '', preference = '', flags = '', service = '', regexp = '', replacement = ''] = tokens(data);
      return `${order} ${preference} ${quote(flags)} ${quote(service)} ${quote(regexp)} ${name(replacement)}`;
    }
  }
}

/** node:dns results in this module's form (A and AAAA come as `{ address, ttl }` from `{ ttl: true }`). */
export function fromNode(type: DnsRecordType, records: unknown): string[] {
  switch (type) {
    case 'A':
    case 'AAAA':
      return (records as Array<{ address: string }>).map((r) => address(r.address));
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return (records as string[]).map(name);
    case 'TXT':
      return (records as string[][]).map((chunks) => chunks.join(''));
    case 'MX':
      return (records as MxRecord[]).map((r) => `${r.priority} ${name(r.exchange)}`);
    case 'SRV':
      return (records as SrvRecord[]).map((r) => `${r.priority} ${r.weight} ${r.port} ${name(r.name)}`);
    case 'SOA': {
      const r = records as SoaRecord;
      return [`${name(r.nsname)} ${name(r.hostmaster)} ${r.serial} ${r.refresh} ${r.retry} ${r.expire} ${r.minttl}`];
    }
    case 'CAA':
      return (records as CaaRecord[]).map((r) => {
        const [tag = '', value = ''] = Object.entries(r).find(([key]) => key !== 'critical') ?? [];
        return `${r.critical} ${tag.toLowerCase()} ${quote(String(value))}`;
      });
    case 'NAPTR':
      return (records as NaptrRecord[]).map(
        (r) => `${r.order} ${r.preference} ${quote(r.flags)} ${quote(r.service)} ${quote(r.regexp)} ${name(r.replacement)}`,
      );
  }
}
