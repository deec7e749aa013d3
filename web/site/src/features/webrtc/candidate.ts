import { isIp } from '../../lib/ip.js';

/** The ICE candidate types (RFC 8445): a local address, one a STUN server saw, one a peer saw, a TURN relay. */
export type CandidateType = 'host' | 'srflx' | 'prflx' | 'relay';

export interface Candidate {
  type: CandidateType;
  /** An IP address, or the random `<uuid>.local` name a browser gives in place of a local address. */
  address: string;
  port: number;
  protocol: 'udp' | 'tcp';
}

const TYPES: readonly string[] = ['host', 'srflx', 'prflx', 'relay'];

/**
 * Reads one ICE candidate line (RFC 8839: `candidate:<foundation> <component>
 * <transport> <priority> <address> <port> typ <type> …`, with or without the
 * SDP's `a=`). Fields are read by position, not by matching the first thing that
 * looks like an address, so a `raddr` never stands in for the candidate's own.
 * Anything else (an end-of-candidates marker, a malformed line) is null.
 */
export function parseCandidate(line: string): Candidate | null {
  const tokens = line.trim().replace(/^a=/, '').split(/\s+/);
  const [foundation = '', , transport = '', , rawAddress = '', port = '', typ, type = ''] = tokens;
  if (!foundation.startsWith('candidate:') || typ !== 'typ' || !TYPES.includes(type)) return null;
  const protocol = transport.toLowerCase();
  if (protocol !== 'udp' && protocol !== 'tcp') return null;
  const address = rawAddress.replace(/^\[(.*)\]$/, '$1');
  if (!isIp(address) && !isMdnsName(address)) return null;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) return null;
  return { type: type as CandidateType, address, port: Number(port), protocol };
}

/** A browser's stand-in for a local address (mDNS, RFC 8828): it reveals nothing of the address. */
export function isMdnsName(address: string): boolean {
  return /^[0-9a-z-]+\.local$/i.test(address);
}
