import assert from 'node:assert/strict';
import test from 'node:test';
import {
  probeAll,
  probeLocalAddresses,
  probeStunServer,
  type Clock,
  type PeerFactory,
  type PeerLike,
} from '../../web/site/src/features/webrtc/stun-probe.js';

/** A clock that moves only when told to. */
function manualClock(): Clock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let next = 1;
  return {
    setTimeout(run, ms) {
      const id = next++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      due.forEach((t) => t.run());
    },
    pending: () => timers.length,
  };
}

/** A peer connection that emits the given candidate lines once its local description is set. */
class FakePeer implements PeerLike {
  onicecandidate: PeerLike['onicecandidate'] = null;
  closed = false;
  channels = 0;
  constructor(
    readonly config: { iceServers: { urls: string }[] },
    private readonly lines: (string | null)[],
  ) {}
  createDataChannel(): unknown {
    this.channels++;
    return {};
  }
  createOffer() {
    return Promise.resolve({ type: 'offer', sdp: 'v=0' });
  }
  async setLocalDescription() {
    for (const line of this.lines) this.onicecandidate?.({ candidate: line === null ? null : { candidate: line } });
  }
  close() {
    this.closed = true;
  }
}

function factory(lines: (string | null)[]): PeerFactory & { made: FakePeer[] } {
  const made: FakePeer[] = [];
  const create = (config: { iceServers: { urls: string }[] }) => {
    const peer = new FakePeer(config, lines);
    made.push(peer);
    return peer;
  };
  return Object.assign(create, { made });
}

const HOST = 'candidate:1 1 udp 2113937151 3f1a-77.local 50000 typ host generation 0';
const SRFLX = 'candidate:2 1 udp 1677729535 193.0.0.1 40000 typ srflx raddr 0.0.0.0 rport 0';

test('the first server-reflexive candidate is the answer; the connection asks only that server and is closed', async () => {
  const create = factory([HOST, SRFLX, 'candidate:3 1 udp 1 9.9.9.9 1 typ srflx']);
  const clock = manualClock();
  const result = await probeStunServer('stun:198.18.0.2:3478', { createPeer: create, clock });
  assert.deepEqual(result, {
    url: 'stun:198.18.0.2:3478',
    outcome: { status: 'found', type: 'srflx', ip: '193.0.0.1' },
    hosts: ['3f1a-77.local'],
  });
  const [peer] = create.made;
  assert.deepEqual(peer?.config, { iceServers: [{ urls: 'stun:198.18.0.2:3478' }] });
  assert.equal(peer?.channels, 1, 'a data channel makes the browser gather candidates');
  assert.ok(peer?.closed);
  assert.equal(clock.pending(), 0, 'the timer is cleared');
});

test('a peer-reflexive candidate counts too', async () => {
  const result = await probeStunServer('stun:a', {
    createPeer: factory(['candidate:2 1 udp 1 2001:4860:4860::8888 4 typ prflx']),
    clock: manualClock(),
  });
  assert.deepEqual(result.outcome, { status: 'found', type: 'prflx', ip: '2001:4860:4860::8888' });
});

test('a server that never answers is an error once the time is up, not before', async () => {
  const clock = manualClock();
  const create = factory([HOST]);
  let settled = false;
  const pending = probeStunServer('stun:silent', { createPeer: create, clock, timeoutMs: 5000 }).then((r) => {
    settled = true;
    return r;
  });
  await new Promise((resolve) => setImmediate(resolve));
  clock.advance(4999);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false);
  clock.advance(1);
  const result = await pending;
  assert.deepEqual(result.outcome, { status: 'error', reason: 'timeout' });
  assert.deepEqual(result.hosts, ['3f1a-77.local'], 'the local addresses seen so far are kept');
  assert.ok(create.made[0]?.closed);
});

test('gathering that ends without a reflexive candidate is an error at once', async () => {
  const result = await probeStunServer('stun:a', { createPeer: factory([HOST, null]), clock: manualClock() });
  assert.deepEqual(result.outcome, { status: 'error', reason: 'noAnswer' });
});

test('a public local address is what WebRTC exposes when no reflexive one comes (a device with a public address)', async () => {
  const result = await probeStunServer('stun:a', {
    createPeer: factory(['candidate:1 1 udp 1 192.168.1.4 5 typ host', 'candidate:1 1 udp 1 1.1.1.1 5 typ host', null]),
    clock: manualClock(),
  });
  assert.deepEqual(result.outcome, { status: 'found', type: 'host', ip: '1.1.1.1' });
  assert.deepEqual(result.hosts, ['192.168.1.4', '1.1.1.1']);
});

test('no RTCPeerConnection, a constructor WebRTC refuses, or a stub without its methods is "unavailable"', async () => {
  const clock = manualClock();
  const refused = (name: string, message = '') =>
    (() => {
      throw Object.assign(new Error(message), { name });
    }) as PeerFactory;
  for (const createPeer of [
    null,
    refused('NotAllowedError'),
    refused('NotSupportedError'),
    refused('TypeError', 'RTCPeerConnection is not a constructor'),
    (() => ({ onicecandidate: null, close() {} })) as unknown as PeerFactory,
  ]) {
    assert.deepEqual((await probeStunServer('stun:a', { createPeer, clock })).outcome, { status: 'unavailable' });
  }
});

test('any other failure of WebRTC is an error, not "unavailable"', async () => {
  const clock = manualClock();
  const broken = (() => {
    throw new Error('boom');
  }) as PeerFactory;
  assert.deepEqual((await probeStunServer('stun:a', { createPeer: broken, clock })).outcome, {
    status: 'error',
    reason: 'failed',
  });
  const offerFails = factory([]);
  const failing: PeerFactory = (config) => {
    const peer = offerFails(config) as FakePeer;
    peer.createOffer = () => Promise.reject(new Error('no offer'));
    return peer;
  };
  assert.deepEqual((await probeStunServer('stun:a', { createPeer: failing, clock })).outcome, {
    status: 'error',
    reason: 'failed',
  });
});

test('every server is asked at once, each result reported as it settles, in the list order at the end', async () => {
  const clock = manualClock();
  const byServer: Record<string, (string | null)[]> = { 'stun:fast': [SRFLX], 'stun:slow': [HOST] };
  const createPeer: PeerFactory = (config) => new FakePeer(config, byServer[config.iceServers[0]!.urls] ?? []);
  const heard: number[] = [];
  const all = probeAll(['stun:slow', 'stun:fast'], { createPeer, clock }, (index) => heard.push(index));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, [1], 'the answering server is reported before the silent one times out');
  clock.advance(5000);
  const results = await all;
  assert.deepEqual(heard, [1, 0]);
  assert.deepEqual(
    results.map((r) => [r.url, r.outcome.status]),
    [
      ['stun:slow', 'error'],
      ['stun:fast', 'found'],
    ],
  );
});

test('the local addresses come from a connection without any server, gathered to the end', async () => {
  const second = 'candidate:3 1 udp 2113939711 9d2e-01.local 50001 typ host generation 0';
  const create = factory([HOST, second, null]);
  const result = await probeLocalAddresses({ createPeer: create, clock: manualClock() });
  assert.deepEqual(create.made[0]?.config, { iceServers: [] });
  assert.deepEqual(result, {
    url: '',
    outcome: { status: 'error', reason: 'noAnswer' },
    hosts: ['3f1a-77.local', '9d2e-01.local'],
  });
});
