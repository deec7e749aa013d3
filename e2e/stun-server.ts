import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { promisify } from 'node:util';
import { startCoturnBehindNat, startStunBehindNat as startNatted, type StunServer } from '../demo/stun.js';
import { sharedStunNetwork } from '../demo/stun-network.js';

const run = promisify(execFile);

export type { StunServer };

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

/** coturn behind a NAT presenting this machine as `mappedAs` (demo/stun.ts), on the next port of this worker's block. */
export async function startStunBehindNat(mappedAs: string): Promise<StunServer> {
  const network = sharedStunNetwork();
  return startNatted(network, await freePort(network.namespace), mappedAs);
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
  const network = sharedStunNetwork();
  const { address, second } = network;
  const port = await freePort(network.namespace);
  const random = mapping === 'address-and-port-dependent' ? ' fully-random' : '';
  const endpoints: Array<[string, number]> = [
    [address, port],
    [address, port + 1],
    [second, port],
  ];
  const close = await startCoturnBehindNat(network, {
    addresses: [address, second],
    port,
    rule: `ip daddr { ${address}, ${second} } udp dport { ${port}, ${port + 1} } snat to ${mappedAs}${random}`,
    mappedAs,
    endpoints,
  });
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
