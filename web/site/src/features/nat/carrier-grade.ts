import ipaddr from 'ipaddr.js';
import { familyOf } from './mapping.js';

/** How likely a carrier-grade NAT (RFC 6598) is, from what a browser can see: never a certainty. */
export type Likelihood = 'likely' | 'possible' | 'no-sign' | 'unknown';

/** One piece of evidence, with the addresses it rests on. */
export type Evidence =
  /** An address of the shared space 100.64.0.0/10, which only a carrier's NAT hands out. */
  | { kind: 'shared-range'; ip: string }
  /** A STUN server saw another address than this site did (same family). */
  | { kind: 'different-address'; stunSees: string; siteSees: string };

export interface CarrierGradeInput {
  /** Every address WebRTC showed: the device's own (host) and those the STUN servers saw. */
  addresses: readonly string[];
  /** The addresses the STUN servers saw (server-reflexive). */
  stunSees: readonly string[];
  /** The address this site sees (/api/client-ip), or null when it could not be learnt. */
  siteSees: string | null;
}

export interface CarrierGrade {
  likelihood: Likelihood;
  evidence: Evidence[];
}

export function inSharedRange(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const parsed = ipaddr.process(ip);
  return parsed.kind() === 'ipv4' && parsed.range() === 'carrierGradeNat';
}

const canonical = (ip: string): string => (ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : ip);

/**
 * The rules, each a likelihood and never a fact:
 * - an address in 100.64.0.0/10: likely (the range exists for carriers' NATs,
 *   though a home router may misuse it);
 * - a STUN server seeing another address of the same family than this site:
 *   possible (a carrier's NAT pool gives one line several public addresses,
 *   but a VPN or proxy for the site, or a second line, does the same);
 * - the same address seen by both: no sign (a carrier's NAT that keeps one
 *   public address per line looks like this too);
 * - nothing to compare: unknown.
 */
export function carrierGrade(input: CarrierGradeInput): CarrierGrade {
  const evidence: Evidence[] = [];
  for (const ip of new Set(input.addresses.map(canonical))) {
    if (inSharedRange(ip)) evidence.push({ kind: 'shared-range', ip });
  }
  const site = input.siteSees === null ? null : canonical(input.siteSees);
  const comparable =
    site === null ? [] : [...new Set(input.stunSees.map(canonical))].filter((ip) => familyOf(ip) === familyOf(site));
  for (const ip of comparable) {
    if (site !== null && ip !== site) evidence.push({ kind: 'different-address', stunSees: ip, siteSees: site });
  }
  if (evidence.some((e) => e.kind === 'shared-range')) return { likelihood: 'likely', evidence };
  if (evidence.length > 0) return { likelihood: 'possible', evidence };
  return { likelihood: comparable.length > 0 ? 'no-sign' : 'unknown', evidence };
}
