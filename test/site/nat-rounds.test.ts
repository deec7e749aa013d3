import assert from 'node:assert/strict';
import test from 'node:test';
import type { Clock } from '../../web/site/src/features/webrtc/stun-probe.js';
import { summarize } from '../../web/site/src/features/nat/mapping.js';
import { runRound, runRounds, type NatPeer, type RoundDeps } from '../../web/site/src/features/nat/rounds.js';

const A = 'stun:198.18.0.2:3478';
const A2 = 'stun:198.18.0.2:3479';
const B = 'stun:198.18.0.3:3478';
const SILENT = 'stun:198.18.0.4:3478';

/** A clock whose timers run only when `fire()` is called: the time limit passes when the test says so. */
function manualClock(): Clock & { fire(): void } {
  let timers: { run: () => void; id: number }[] = [];
  let next = 1;
  return {
    setTimeout(run) {
      timers.push({ run, id: next });
      return next++;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    fire() {
      const due = timers;
      timers = [];
      due.forEach((t) => t.run());
    },
  };
}

type Behaviour = 'endpoint-independent' | 'address-and-port-dependent';

/**
 * A browser behind a NAT, as Chromium shows it: one host candidate (an mDNS
 * name) per connection on a fresh local port, a reflexive candidate per
 * distinct mapping (a repeated one dropped), named by its server; a server in
 * `silent` never answers, and then the browser never ends its gathering.
 */
function browserBehind(behaviour: Behaviour, silent: string[] = []) {
  let localPort = 50000;
  const made: { servers: string[]; closed: boolean }[] = [];
  const createPeer = (config: { iceServers: { urls: string }[] }): NatPeer => {
    const servers = config.iceServers.map((s) => s.urls);
    const record = { servers, closed: false };
    made.push(record);
    const port = localPort++;
    const peer: NatPeer = {
      onicecandidate: null,
      createDataChannel: () => ({}),
      createOffer: () => Promise.resolve({ type: 'offer', sdp: 'v=0' }),
      async setLocalDescription() {
        const emit = (line: string | null, url?: string) =>
          peer.onicecandidate?.({ candidate: line === null ? null : { candidate: line, url: url ?? '' } });
        emit(`candidate:11 1 udp 2113937151 3f1a-77.local ${port} typ host generation 0`);
        const seen = new Set<number>();
        servers.forEach((url, i) => {
          if (silent.includes(url)) return;
          const mapped = behaviour === 'endpoint-independent' ? port : 20000 + (port - 50000) * 10 + i;
          if (seen.has(mapped)) return;
          seen.add(mapped);
          emit(`candidate:77 1 udp 1677729535 193.0.0.1 ${mapped} typ srflx raddr 0.0.0.0 rport 0 generation 0`, url);
        });
        if (!servers.some((url) => silent.includes(url))) emit(null);
      },
      close() {
        record.closed = true;
      },
    };
    return peer;
  };
  return { createPeer, made };
}

test('a round asks every server from one connection and each alone; an endpoint-independent NAT leaves one candidate', async () => {
  const browser = browserBehind('endpoint-independent');
  const round = await runRound([A, A2, B], { createPeer: browser.createPeer, clock: manualClock() });
  assert.deepEqual(
    browser.made.map((m) => m.servers),
    [[A, A2, B], [A], [A2], [B]],
  );
  assert.ok(browser.made.every((m) => m.closed));
  assert.deepEqual(round.shared, [{ address: '193.0.0.1', port: 50000, base: '77', url: A }]);
  assert.deepEqual(round.answered, { ipv4: [A, A2, B], ipv6: [] });
  assert.deepEqual(round.publicHosts, []);
  assert.deepEqual(round.stunSees, ['193.0.0.1']);
  assert.equal(summarize([A, A2, B], [round])[0]?.answer, 'endpoint-independent');
});

test('five rounds, each from fresh connections, name an address-and-port-dependent NAT five times', async () => {
  const browser = browserBehind('address-and-port-dependent');
  const heard: number[] = [];
  const rounds = await runRounds([A, A2, B], { createPeer: browser.createPeer, clock: manualClock() }, 5, (n) =>
    heard.push(n),
  );
  assert.deepEqual(heard, [1, 2, 3, 4, 5]);
  assert.equal(browser.made.length, 5 * 4, 'a shared connection and three lone ones per round');
  assert.equal(rounds[0]?.shared.length, 3);
  assert.deepEqual(summarize([A, A2, B], rounds)[0], {
    family: 'ipv4',
    answer: 'address-and-port-dependent',
    agreeing: 5,
    rounds: 5,
    answers: Array(5).fill('address-and-port-dependent'),
  });
});

test('a server that never answers is left out once the time is up; the others still count', async () => {
  const browser = browserBehind('endpoint-independent', [SILENT]);
  const clock = manualClock();
  const pending = runRound([A, SILENT, B], { createPeer: browser.createPeer, clock, timeoutMs: 5000 });
  await new Promise((resolve) => setImmediate(resolve));
  clock.fire();
  const round = await pending;
  assert.deepEqual(round.answered.ipv4, [A, B]);
  assert.equal(summarize([A, SILENT, B], [round])[0]?.answer, 'endpoint-independent');
});

test('only what a browser can ask is asked: other URLs and repeats are left out', async () => {
  const browser = browserBehind('endpoint-independent');
  await runRound([A, 'turn:198.18.0.9', A, 'stun:198.18.0.2'], {
    createPeer: browser.createPeer,
    clock: manualClock(),
  });
  assert.deepEqual(browser.made[0]?.servers, [A]);
});

test('without RTCPeerConnection, or when making one throws, the round is unavailable', async () => {
  const clock = manualClock();
  const none: RoundDeps = { createPeer: null, clock };
  assert.equal((await runRound([A, B], none)).unavailable, true);
  const throwing: RoundDeps = {
    createPeer: () => {
      throw Object.assign(new Error('blocked'), { name: 'NotAllowedError' });
    },
    clock,
  };
  const round = await runRound([A, B], throwing);
  assert.equal(round.unavailable, true);
  assert.equal(summarize([A, B], [round])[0]?.answer, 'unavailable');
});
