import { Type, type TUnsafe } from 'typebox';
import { parseIp } from '../lib/network/ip-address.js';
import { isPublicAddress } from '../lib/network/public-address.js';
import { normaliseDomain } from '../lib/network/domain-name.js';
import { boundedMemo } from '../lib/bounded-memo.js';

/**
 * A guard checks one query or path parameter. It receives the raw value (a
 * string, or an array when the parameter was given twice) and returns the
 * value the handler sees, or the exact error string of the spec.
 */
export interface Guard {
  missing: string;
  invalid: string;
  /** Returns the normalised value, or an error string when the value passes the syntax but not the meaning. */
  check: (value: string) => string | { error: string };
}

export const GUARD_KEYWORD = 'x-guard';

const registry = new Map<string, Guard>();

/** Adds a guard that a capability owns (its allow-list lives with it). */
export function defineGuard(name: string, guard: Guard): void {
  registry.set(name, guard);
}

export function getGuard(name: string): Guard | undefined {
  return registry.get(name);
}

/**
 * Applies the named guard to a raw parameter value: the normalised value, or
 * the guard's error string (missing, malformed, or its own check's answer).
 */
export function applyGuard(name: string, raw: unknown): string | { error: string } {
  const guard = registry.get(name);
  if (!guard) throw new Error(`Unknown guard ${name}`);
  if (raw === undefined || raw === '') return { error: guard.missing };
  if (typeof raw !== 'string') return { error: guard.invalid };
  return guard.check(raw);
}

/**
 * The schema of a guarded parameter. Ajv lets any value through; the guard
 * hook (plugins/guards.ts) then applies the guard, so every guard answer comes
 * from one place and the handler's type is a checked string.
 */
export function guarded(name: string): TUnsafe<string> {
  return Type.Unsafe<string>({ [GUARD_KEYWORD]: name });
}

const ok = (value: string) => value;
const fail = (error: string) => ({ error });

// A page looks one address up from every geo source at once, so the verdicts
// are remembered: parsing an address was a fifth of a local lookup's CPU.
const IP_VERDICTS_MAX = 4096;

defineGuard('publicIp', {
  missing: 'No IP address provided',
  invalid: 'Invalid IP address',
  check: boundedMemo((value) => {
    const addr = parseIp(value);
    if (!addr) return fail('Invalid IP address');
    return isPublicAddress(addr) ? ok(value) : fail('Not a public IP address');
  }, IP_VERDICTS_MAX),
});

defineGuard('domain', {
  missing: 'No domain provided',
  invalid: 'Invalid domain',
  check: (value) => normaliseDomain(value) ?? fail('Invalid domain'),
});

defineGuard('prefix', {
  missing: 'No prefix provided',
  invalid: 'Invalid prefix',
  check: (value) => {
    const [addr, bits, extra] = value.split('/');
    if (extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return fail('Invalid prefix');
    const ip = parseIp(addr!);
    const max = ip?.kind() === 'ipv4' ? 32 : 128;
    return ip && Number(bits) <= max ? ok(value) : fail('Invalid prefix');
  },
});

defineGuard('asn', {
  missing: 'No ASN provided',
  invalid: 'Invalid ASN',
  check: (value) => {
    const match = /^(?:AS)?(\d{1,10})$/i.exec(value);
    const n = match ? Number(match[1]) : NaN;
    return Number.isInteger(n) && n <= 0xffffffff ? ok(String(n)) : fail('Invalid ASN');
  },
});

defineGuard('country', {
  missing: 'No country provided',
  invalid: 'Invalid country',
  check: (value) => (/^[A-Za-z]{2}$/.test(value) ? ok(value.toUpperCase()) : fail('Invalid country')),
});

// The record types every resolver in the comparison can answer: node:dns
// Resolver methods exist for each, and DNS-over-HTTPS takes any type name.
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'SRV', 'CAA', 'PTR', 'NAPTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

defineGuard('recordType', {
  missing: 'No record type provided',
  invalid: 'Invalid record type',
  check: (value) => {
    const upper = value.toUpperCase();
    return (DNS_RECORD_TYPES as readonly string[]).includes(upper) ? ok(upper) : fail('Invalid record type');
  },
});

defineGuard('reportId', {
  missing: 'Invalid report id',
  invalid: 'Invalid report id',
  check: (value) => (/^[A-Za-z0-9_-]{22}$/.test(value) ? ok(value) : fail('Invalid report id')),
});
