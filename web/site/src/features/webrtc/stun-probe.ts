import { isReserved } from '../../lib/ip.js';
import { isMdnsName, parseCandidate } from './candidate.js';

/** How long one STUN server has to answer (the reference's 5 s). */
export const PROBE_TIMEOUT_MS = 5000;

/** What one STUN server showed. */
export type Outcome =
  /** An address WebRTC exposes: seen by the STUN server (srflx), by a peer (prflx), or a public local address (host). */
  | { status: 'found'; type: 'srflx' | 'prflx' | 'host'; ip: string }
  /** No address: nothing within the time (`timeout`), the browser gave up first (`noAnswer`), or WebRTC failed (`failed`). */
  | { status: 'error'; reason: 'timeout' | 'noAnswer' | 'failed' }
  /** The browser has no usable WebRTC (switched off, blocked by a policy or an extension). */
  | { status: 'unavailable' };

export interface ProbeResult {
  url: string;
  outcome: Outcome;
  /** The local addresses the browser exposed on the way: IPs, or the `.local` names standing in for them. */
  hosts: string[];
}

/** The part of RTCPeerConnection the probe uses, so tests can hand in their own. */
export interface PeerLike {
  onicecandidate: ((event: { candidate: { candidate: string } | null }) => void) | null;
  createDataChannel(label: string): unknown;
  createOffer(): Promise<{ type?: string; sdp?: string }>;
  setLocalDescription(description: { type?: string; sdp?: string }): Promise<void>;
  close(): void;
}
export type PeerFactory = (config: { iceServers: { urls: string }[] }) => PeerLike;

export interface Clock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ProbeDeps {
  /** Null where the browser has no RTCPeerConnection at all. */
  createPeer: PeerFactory | null;
  clock: Clock;
  timeoutMs?: number;
}

/** The browser's own RTCPeerConnection, if it has one. */
export function browserPeerFactory(): PeerFactory | null {
  const Peer = (globalThis as { RTCPeerConnection?: new (config: RTCConfiguration) => RTCPeerConnection })
    .RTCPeerConnection;
  if (typeof Peer !== 'function') return null;
  return (config) => new Peer(config) as unknown as PeerLike;
}

export const browserClock: Clock = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

// What browsers throw when WebRTC is switched off or the page may not use it, rather than broken.
function meansUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'NotAllowedError' || err.name === 'NotSupportedError' || /not a constructor/i.test(err.message);
}

function failureOf(err: unknown): Outcome {
  return meansUnavailable(err) ? { status: 'unavailable' } : { status: 'error', reason: 'failed' };
}

function usable(peer: PeerLike): boolean {
  return typeof peer.createDataChannel === 'function' && typeof peer.createOffer === 'function';
}

/**
 * A peer connection with these ICE servers (one STUN server, or none), a data
 * channel and an offer so the browser gathers candidates; the first
 * server-reflexive (or peer-reflexive) candidate is the answer and ends it. A public host candidate is an answer too: a device with a public
 * address of its own exposes it directly, and the browser then drops the
 * reflexive candidate as a duplicate.
 */
function gather(url: string, iceServers: { urls: string }[], deps: ProbeDeps): Promise<ProbeResult> {
  const hosts: string[] = [];
  const { createPeer, clock, timeoutMs = PROBE_TIMEOUT_MS } = deps;
  if (!createPeer) return Promise.resolve({ url, outcome: { status: 'unavailable' }, hosts });
  let peer: PeerLike;
  try {
    peer = createPeer({ iceServers });
  } catch (err) {
    return Promise.resolve({ url, outcome: failureOf(err), hosts });
  }
  if (!usable(peer)) return Promise.resolve({ url, outcome: { status: 'unavailable' }, hosts });

  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: Outcome): void => {
      if (done) return;
      done = true;
      clock.clearTimeout(timer);
      releasePeer(peer);
      resolve({ url, outcome, hosts: [...hosts] });
    };
    const withoutReflexive = (reason: 'timeout' | 'noAnswer'): Outcome => {
      const own = hosts.find((address) => !isMdnsName(address) && !isReserved(address));
      return own ? { status: 'found', type: 'host', ip: own } : { status: 'error', reason };
    };
    const timer = clock.setTimeout(() => finish(withoutReflexive('timeout')), timeoutMs);

    peer.onicecandidate = (event) => {
      if (!event.candidate || !event.candidate.candidate) {
        finish(withoutReflexive('noAnswer'));
        return;
      }
      const candidate = parseCandidate(event.candidate.candidate);
      if (!candidate) return;
      if (candidate.type === 'host') {
        if (!hosts.includes(candidate.address)) hosts.push(candidate.address);
      } else if ((candidate.type === 'srflx' || candidate.type === 'prflx') && !isMdnsName(candidate.address)) {
        finish({ status: 'found', type: candidate.type, ip: candidate.address });
      }
    };
    try {
      peer.createDataChannel('');
      peer
        .createOffer()
        .then((offer) => peer.setLocalDescription(offer))
        .catch((err: unknown) => finish(failureOf(err)));
    } catch (err) {
      finish(failureOf(err));
    }
  });
}

/** Asks one STUN server for the address it sees (see gather). */
export function probeStunServer(url: string, deps: ProbeDeps): Promise<ProbeResult> {
  return gather(url, [{ urls: url }], deps);
}

/**
 * The local addresses alone, from a connection without any server: with
 * obfuscated host candidates the browser names them only once their mDNS names
 * are registered, often after a STUN server has answered, which ends a probe.
 * Its `url` is empty; it is no server's row.
 */
export function probeLocalAddresses(deps: ProbeDeps): Promise<ProbeResult> {
  return gather('', [], deps);
}

/** Every server at once; `onResult` hears each as it settles, for the page's live progress. */
export function probeAll(
  urls: readonly string[],
  deps: ProbeDeps,
  onResult: (index: number, result: ProbeResult) => void = () => undefined,
): Promise<ProbeResult[]> {
  return Promise.all(
    urls.map((url, index) =>
      probeStunServer(url, deps).then((result) => {
        onResult(index, result);
        return result;
      }),
    ),
  );
}

/** Stops listening to `peer` and closes it; a connection that failed to start may throw on close, and holds nothing then. */
export function releasePeer(peer: Pick<RTCPeerConnection, 'onicecandidate' | 'close'>): void {
  peer.onicecandidate = null;
  try {
    peer.close();
  } catch {
    // Nothing left to release.
  }
}
