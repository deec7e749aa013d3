import { hostIn, isDomain, isIp, isReserved } from '../../lib/ip.js';

/**
 * What the target box holds: nothing, something that is no address or
 * domain, one the probes on the internet cannot reach (a private or reserved
 * address, a name under a TLD kept for local use), or a target to measure.
 */
export type TargetReading =
  { kind: 'empty' } | { kind: 'invalid' } | { kind: 'unreachable' } | { kind: 'ok'; target: string };

// Names that never resolve on the public internet (RFC 2606, 6761, 6762, 8375) or that homes and companies use inside.
const LOCAL_SUFFIX = /\.(test|example|invalid|localhost|local|internal|lan|home\.arpa)$/;

export function readTarget(input: string): TargetReading {
  if (!input.trim()) return { kind: 'empty' };
  const host = hostIn(input);
  if (isIp(host)) return isReserved(host) ? { kind: 'unreachable' } : { kind: 'ok', target: host };
  if (!isDomain(host)) return { kind: 'invalid' };
  return LOCAL_SUFFIX.test(host) ? { kind: 'unreachable' } : { kind: 'ok', target: host };
}

// The report's `ipOrDomain`: an address, or a domain of letters, digits and hyphens (frontend contract 19.3).
const REPORT_DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

/** Whether the report accepts `target` as its `target`. */
export function reportableTarget(target: string): boolean {
  return target.length <= 253 && (isIp(target) || REPORT_DOMAIN.test(target));
}
