import { applyGuard } from '../../schemas/guarded.js';
import { publicIpGuard } from '../../schemas/guards.js';
import { parseIp } from '../../lib/network/ip-address.js';
import { memoized } from '../../lib/memory-cache.js';

// Scripts ask about the same few addresses again and again; parsing one is most of the check.
const canonical = memoized((ip: string) => parseIp(ip)!.toString(), 4096);

/**
 * The address a request asks about: `?ip=` through the public-IP guard (its
 * exact words, 400, when refused), written in its one canonical form
 * (`2001:4860:4860:0:0:0:0:8888` is `2001:4860:4860::8888`); without `?ip=`,
 * the caller's own. An empty caller address (the socket gone before the
 * request was read) is a 500 no one is left to read.
 */
export function requestedAddress(raw: unknown, caller: string): string | { status: number; error: string } {
  if (raw === undefined) return caller || { status: 500, error: 'Client address unknown' };
  const checked = applyGuard(publicIpGuard, raw);
  if (typeof checked !== 'string') return { status: 400, error: checked.error };
  return canonical(checked);
}
