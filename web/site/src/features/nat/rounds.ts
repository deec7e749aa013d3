import { isReserved } from '../../lib/ip.js';
import { isMdnsName, parseCandidate } from '../webrtc/candidate.js';
import { PROBE_TIMEOUT_MS, releasePeer, type Clock } from '../webrtc/stun-probe.js';
import { distinctEndpoints, familyOf, type Family, type Reflexive, type Round } from './mapping.js';

/** How many rounds a run makes, each from fresh local ports (a new connection). */
export const ROUNDS = 5;

/** The part of RTCPeerConnection a round uses; `url` names the STUN server a candidate came from. */
export interface NatPeer {
  onicecandidate: ((event: { candidate: { candidate: string; url?: string | null } | null }) => void) | null;
  createDataChannel(label: string): unknown;
  createOffer(): Promise<{ type?: string; sdp?: string }>;
  setLocalDescription(description: { type?: string; sdp?: string }): Promise<void>;
  close(): void;
}

export interface RoundDeps {
  /** Null where the browser has no RTCPeerConnection at all. */
  createPeer: ((config: { iceServers: { urls: string }[] }) => NatPeer) | null;
  clock: Clock;
  timeoutMs?: number;
}

export function browserNatPeer(): RoundDeps['createPeer'] {
  const Peer = (globalThis as { RTCPeerConnection?: new (config: RTCConfiguration) => RTCPeerConnection })
    .RTCPeerConnection;
  if (typeof Peer !== 'function') return null;
  return (config) => new Peer(config) as unknown as NatPeer;
}

/** What one connection gathered, until the browser's end of candidates or the time limit. */
interface Gathered {
  reflexive: Reflexive[];
  /** The addresses (not the `.local` stand-ins) the browser gave as its own. */
  hosts: string[];
}

function gatherAll(urls: readonly string[], deps: RoundDeps): Promise<Gathered | 'unavailable'> {
  const { createPeer, clock, timeoutMs = PROBE_TIMEOUT_MS } = deps;
  if (!createPeer) return Promise.resolve('unavailable');
  let peer: NatPeer;
  try {
    peer = createPeer({ iceServers: urls.map((url) => ({ urls: url })) });
  } catch {
    return Promise.resolve('unavailable');
  }
  const gathered: Gathered = { reflexive: [], hosts: [] };
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Gathered | 'unavailable'): void => {
      if (done) return;
      done = true;
      clock.clearTimeout(timer);
      releasePeer(peer);
      resolve(answer);
    };
    const timer = clock.setTimeout(() => finish(gathered), timeoutMs);
    peer.onicecandidate = (event) => {
      if (!event.candidate || !event.candidate.candidate) {
        finish(gathered);
        return;
      }
      const line = event.candidate.candidate;
      const candidate = parseCandidate(line);
      if (!candidate || candidate.protocol !== 'udp' || isMdnsName(candidate.address)) return;
      if (candidate.type === 'host') gathered.hosts.push(candidate.address);
      if (candidate.type !== 'srflx') return;
      // The foundation (RFC 8445 5.1.1.3) is the same for every candidate of one local address.
      const base = /^(?:a=)?candidate:(\S+)/.exec(line.trim())?.[1] ?? '';
      const url = event.candidate.url ?? undefined;
      gathered.reflexive.push({ address: candidate.address, port: candidate.port, base, ...(url ? { url } : {}) });
    };
    try {
      peer.createDataChannel('');
      peer
        .createOffer()
        .then((offer) => peer.setLocalDescription(offer))
        .catch(() => finish('unavailable'));
    } catch {
      finish('unavailable');
    }
  });
}

/** A round, with what the carrier-grade NAT rules read from it. */
export interface RoundSeen extends Round {
  /** Every address WebRTC showed in the round. */
  addresses: string[];
  /** The addresses the STUN servers saw. */
  stunSees: string[];
}

/**
 * One round: a connection asking every listed server (its candidates show the
 * mappings of one local port) and, at the same time, one connection per
 * server alone (whether it answers at all), each from fresh local ports.
 */
export async function runRound(urls: readonly string[], deps: RoundDeps): Promise<RoundSeen> {
  const servers = distinctEndpoints(urls).map((e) => e.url);
  const [shared, ...alone] = await Promise.all([
    gatherAll(servers, deps),
    ...servers.map((url) => gatherAll([url], deps)),
  ]);
  if (shared === 'unavailable') {
    return {
      shared: [],
      answered: { ipv4: [], ipv6: [] },
      publicHosts: [],
      unavailable: true,
      addresses: [],
      stunSees: [],
    };
  }
  const answered: Record<Family, string[]> = { ipv4: [], ipv6: [] };
  alone.forEach((gathered, i) => {
    if (gathered === 'unavailable') return;
    for (const family of new Set(gathered.reflexive.map((r) => familyOf(r.address)))) {
      if (family) answered[family].push(servers[i] ?? '');
    }
  });
  const all = [shared, ...alone].flatMap((g) => (g === 'unavailable' ? [] : [g]));
  const stunSees = [...new Set(all.flatMap((g) => g.reflexive.map((r) => r.address)))];
  const hosts = [...new Set(all.flatMap((g) => g.hosts))];
  return {
    shared: shared.reflexive,
    answered,
    publicHosts: hosts.filter((ip) => !isReserved(ip)),
    addresses: [...new Set([...hosts, ...stunSees])],
    stunSees,
  };
}

/** `count` rounds one after the other; `onRound` hears each as it ends, for the page's progress. */
export async function runRounds(
  urls: readonly string[],
  deps: RoundDeps,
  count = ROUNDS,
  onRound: (done: number) => void = () => undefined,
): Promise<RoundSeen[]> {
  const rounds: RoundSeen[] = [];
  for (let i = 0; i < count; i++) {
    rounds.push(await runRound(urls, deps));
    onRound(rounds.length);
  }
  return rounds;
}
