import type { Guard } from './guarded.js';
import { parseIp } from '../lib/network/ip-address.js';
import { isPublicAddress } from '../lib/network/public-address.js';
import { normaliseDomain } from '../lib/network/domain-name.js';
import { memoized } from '../lib/memory-cache.js';

// The spec's guards (its Guards table). The provider-id guard reads the
// service-status provider list and lives beside it (routes/service-status/providers.ts);
// a guard the spec does not name lives with the capability that uses it.

const fail = (error: string) => ({ error });

// A page looks one address up from every geo source at once, so the verdicts
// are remembered: parsing an address was a fifth of a local lookup's CPU.
const IP_VERDICTS_MAX = 4096;

export const publicIpGuard: Guard = {
  missing: 'No IP address provided',
  invalid: 'Invalid IP address',
  check: memoized((value) => {
    const addr = parseIp(value);
    if (!addr) return fail('Invalid IP address');
    return isPublicAddress(addr) ? value : fail('Not a public IP address');
  }, IP_VERDICTS_MAX),
};

/** Lower-cases the name (punycode for Unicode); speaks of a domain whatever the parameter's name. */
export const domainGuard: Guard = {
  missing: 'No domain provided',
  invalid: 'Invalid domain',
  check: (value) => normaliseDomain(value) ?? fail('Invalid domain'),
};

export const prefixGuard: Guard = {
  missing: 'No prefix provided',
  invalid: 'Invalid prefix',
  check: (value) => {
    const [addr, bits, extra] = value.split('/');
    if (extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return fail('Invalid prefix');
    const ip = parseIp(addr!);
    const max = ip?.kind() === 'ipv4' ? 32 : 128;
    return ip && Number(bits) <= max ? value : fail('Invalid prefix');
  },
};

/** The bare number: `AS13335` and `as13335` become `13335`. */
export const asnGuard: Guard = {
  missing: 'No ASN provided',
  invalid: 'Invalid ASN',
  check: (value) => {
    const match = /^(?:AS)?(\d{1,10})$/i.exec(value);
    const n = match ? Number(match[1]) : NaN;
    return Number.isInteger(n) && n <= 0xffffffff ? String(n) : fail('Invalid ASN');
  },
};

/** Two letters, upper-cased. */
export const countryGuard: Guard = {
  missing: 'No country provided',
  invalid: 'Invalid country',
  check: (value) => (/^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : fail('Invalid country')),
};

// The record types every resolver in the comparison can answer: node:dns
// Resolver methods exist for each, and DNS-over-HTTPS takes any type name.
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'SRV', 'CAA', 'PTR', 'NAPTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** A member of DNS_RECORD_TYPES in any case, upper-cased. */
export const recordTypeGuard: Guard = {
  missing: 'No record type provided',
  invalid: 'Invalid record type',
  check: (value) => {
    const upper = value.toUpperCase();
    return (DNS_RECORD_TYPES as readonly string[]).includes(upper) ? upper : fail('Invalid record type');
  },
};

export const reportIdGuard: Guard = {
  missing: 'Invalid report id',
  invalid: 'Invalid report id',
  check: (value) => (/^[A-Za-z0-9_-]{22}$/.test(value) ? value : fail('Invalid report id')),
};
