import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sharedStunNetwork } from './stun-network.js';

const run = promisify(execFile);
const START_LIMIT_MS = 15_000;

export interface StunServer {
  /** The server as the page's STUN list names it. */
  url: string;
  close(): Promise<void>;
}

/** A STUN binding request (RFC 5389) and the address in its answer's XOR-MAPPED-ADDRESS, or null. */
function bindingRequest(): { request: Buffer; mappedIn(answer: Buffer): string | null } {
  const cookie = Buffer.from([0x21, 0x12, 0xa4, 0x42]);
  const request = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00]), cookie, randomBytes(12)]);
  const mappedIn = (answer: Buffer): string | null => {
    for (let at = 20; at + 4 <= answer.length;) {
      const type = answer.readUInt16BE(at);
      const length = answer.readUInt16BE(at + 2);
      if (type === 0x0020 && answer[at + 5] === 0x01) {
        return [0, 1, 2, 3].map((i) => (answer[at + 8 + i]! ^ cookie[i]!) & 0xff).join('.');
      }
      at += 4 + length + ((4 - (length % 4)) % 4);
    }
    return null;
  };
  return { request, mappedIn };
}

/** Asks `host`:`port` until it answers a binding request; the address it saw. */
async function mappedAddress(host: string, port: number, limitMs: number): Promise<string> {
  const socket = createSocket('udp4');
  const { request, mappedIn } = bindingRequest();
  try {
    const answered = new Promise<string>((resolve) =>
      socket.on('message', (message) => {
        const seen = mappedIn(message);
        if (seen) resolve(seen);
      }),
    );
    const deadline = Date.now() + limitMs;
    for (;;) {
      socket.send(request, port, host);
      const seen = await Promise.race([answered, new Promise<null>((resolve) => setTimeout(() => resolve(null), 250))]);
      if (seen) return seen;
      if (Date.now() > deadline) throw new Error(`the STUN server at ${host} did not answer within ${limitMs} ms`);
    }
  } finally {
    socket.close();
  }
}

// Each worker its own block of ports (TEST_WORKER_INDEX is unique in a run), each test the next pair in it:
// two tests at once never share a port or a NAT rule, and a port is not reused, so no connection the
// kernel tracked for an earlier test (and its NAT) answers for a later one.
const PORTS_FROM = 20_000;
const PORTS_PER_WORKER = 100;
const worker = Number(process.env.TEST_WORKER_INDEX ?? process.pid) % 400;
let started = 0;

/** The next port of this worker's block that nothing in the namespace listens on (a killed worker's coturn may). */
async function freePort(namespace: string): Promise<number> {
  for (;;) {
    const port = PORTS_FROM + worker * PORTS_PER_WORKER + 2 * (started++ % (PORTS_PER_WORKER / 2));
    const { stdout } = await run('ss', ['-N', namespace, '-Hlun', `sport = :${port}`]);
    if (!stdout.trim()) return port;
  }
}

/** The NAT in front of a test's coturn: one nftables table in the namespace, keyed by its port. */
interface Nat {
  table: string;
  /** The rule's match and translation, e.g. `udp dport 20000 snat to 193.0.0.1`. */
  rule: string;
}

/**
 * Debian's coturn (STUN only: no TURN, TLS, CLI or database) on `addresses`
 * and `port` of the run's namespace, behind `nat`; started once it answers at
 * every endpoint in `endpoints` (address and port) with `mappedAs`. On two
 * addresses coturn also answers on `port` + 1 (RFC 5780's alternate port).
 */
async function startCoturn(
  addresses: string[],
  port: number,
  nat: Nat,
  mappedAs: string,
  endpoints: [string, number][],
): Promise<() => Promise<void>> {
  const { namespace } = sharedStunNetwork();
  const dir = await mkdtemp(join(tmpdir(), 'e2e-stun-'));
  const cleanUp = async () => {
    await run('ip', ['netns', 'exec', namespace, 'nft', 'delete', 'table', 'ip', nat.table]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // The NAT: packets reaching these ports arrive translated; conntrack turns the answers back.
    await writeFile(
      join(dir, 'nat.nft'),
      `table ip ${nat.table} {\n chain input {\n  type nat hook input priority 100;\n  ${nat.rule}\n }\n}\n`,
    );
    await run('ip', ['netns', 'exec', namespace, 'nft', '-f', join(dir, 'nat.nft')]);
    await writeFile(
      join(dir, 'turnserver.conf'),
      [
        ...addresses.map((address) => `listening-ip=${address}`),
        `listening-port=${port}`,
        'stun-only',
        'no-tls',
        'no-dtls',
        'no-cli',
        `pidfile=${join(dir, 'turnserver.pid')}`,
        `userdb=${join(dir, 'turndb')}`,
        'log-file=stdout',
        'simple-log',
        '',
      ].join('\n'),
    );
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const child = spawn('ip', ['netns', 'exec', namespace, 'turnserver', '-c', join(dir, 'turnserver.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await cleanUp();
  };
  try {
    for (const [address, at] of endpoints) {
      const seen = await mappedAddress(address, at, START_LIMIT_MS);
      if (seen !== mappedAs) throw new Error(`the NAT presented this machine as ${seen}, not ${mappedAs}`);
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}; coturn said: ${output}`);
  }
  return stop;
}

/**
 * A real STUN server, coturn in the run's network namespace (e2e/stun-network.ts) behind a NAT
 * that presents every client as `mappedAs`: the browser, on this machine, then
 * gets a server-reflexive candidate as it would behind a home router, with an
 * address the demo's geolocation fixtures know. (On one loopback there is no
 * NAT, and libwebrtc drops a reflexive candidate equal to a local address.)
 * Per test only a process and an nftables table keyed by its port: nftables
 * speaks NETLINK_NETFILTER, which Chromium's network-change watch does not
 * hear, and no interface or address changes. Needs root; `close()` takes both.
 */
export async function startStunBehindNat(mappedAs: string): Promise<StunServer> {
  const { namespace, address } = sharedStunNetwork();
  const port = await freePort(namespace);
  const nat = { table: `e2e_stun_${port}`, rule: `udp dport ${port} snat to ${mappedAs}` };
  const close = await startCoturn([address], port, nat, mappedAs, [[address, port]]);
  return { url: `stun:${address}:${port}`, close };
}

/** RFC 4787's two ends: one mapping per local port, or one per destination address and port. */
export type Mapping = 'endpoint-independent' | 'address-and-port-dependent';

/**
 * One coturn on the namespace's two addresses, each on a port and the port
 * after it, behind a NAT presenting this machine as `mappedAs` with the given
 * mapping: nftables' plain `snat` keeps the source port, one mapping for every
 * destination (endpoint-independent); with `fully-random` each destination
 * address and port gets a random one (address-and-port-dependent). Three of
 * its endpoints, as a STUN list names them: two ports of the first address,
 * one of the second.
 */
export async function startStunPairBehindNat(
  mappedAs: string,
  mapping: Mapping,
): Promise<{ urls: string[]; close(): Promise<void> }> {
  const { namespace, address, second } = sharedStunNetwork();
  const port = await freePort(namespace);
  const random = mapping === 'address-and-port-dependent' ? ' fully-random' : '';
  const nat = {
    table: `e2e_stun_${port}`,
    rule: `ip daddr { ${address}, ${second} } udp dport { ${port}, ${port + 1} } snat to ${mappedAs}${random}`,
  };
  const endpoints: [string, number][] = [
    [address, port],
    [address, port + 1],
    [second, port],
  ];
  const close = await startCoturn([address, second], port, nat, mappedAs, endpoints);
  return { urls: endpoints.map(([host, at]) => `stun:${host}:${at}`), close };
}

/** A UDP port on loopback that takes STUN requests and never answers: a server down or filtered. */
export async function startSilentStun(): Promise<StunServer> {
  const socket: Socket = createSocket('udp4');
  socket.on('message', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    url: `stun:127.0.0.1:${socket.address().port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
