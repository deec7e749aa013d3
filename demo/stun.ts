import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hasCoturn, mappedAddress, startCoturn } from './coturn.js';
import { createStunNetwork, sharedStunNetwork, type StunNetwork } from './stun-network.js';

const run = promisify(execFile);
// coturn answered its first endpoint already: the others only wait for the NAT's rule to apply.
const ENDPOINT_LIMIT_MS = 15_000;

export interface StunServer {
  /** The server as WEBRTC_STUN_SERVERS names it. */
  url: string;
  close(): Promise<void>;
}

/** A coturn behind a NAT: where it listens, the nftables rule in front of it, and the endpoints checked at start. */
export interface NattedCoturn {
  addresses: string[];
  port: number;
  /** The rule's match and translation, e.g. `udp dport 20000 snat to 193.0.0.1`. */
  rule: string;
  /** The address the NAT must present this machine as. */
  mappedAs: string;
  /** Every address and port that must answer with `mappedAs` before the server counts as started. */
  endpoints: Array<[string, number]>;
}

/**
 * coturn in `network`'s namespace behind an nftables NAT: the browser, on this
 * machine, then gets a server-reflexive candidate as it would behind a home
 * router. (On one loopback there is no NAT, and libwebrtc drops a reflexive
 * candidate equal to a local address.) Only a process and an nftables table
 * keyed by the port: nftables speaks NETLINK_NETFILTER, which Chromium's
 * network-change watch does not hear. Needs root; the returned stop takes both.
 */
export async function startCoturnBehindNat(network: StunNetwork, natted: NattedCoturn): Promise<() => Promise<void>> {
  const { namespace } = network;
  const table = `stun_nat_${natted.port}`;
  const dir = await mkdtemp(join(tmpdir(), 'stun-nat-'));
  const cleanUp = async () => {
    await run('ip', ['netns', 'exec', namespace, 'nft', 'delete', 'table', 'ip', table]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // The NAT: packets reaching these ports arrive translated; conntrack turns the answers back.
    await writeFile(
      join(dir, 'nat.nft'),
      `table ip ${table} {\n chain input {\n  type nat hook input priority 100;\n  ${natted.rule}\n }\n}\n`,
    );
    await run('ip', ['netns', 'exec', namespace, 'nft', '-f', join(dir, 'nat.nft')]);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const coturn = await startCoturn(natted.addresses, natted.port, namespace).catch(async (err: unknown) => {
    await cleanUp();
    throw err;
  });
  const stop = async () => {
    await coturn.close();
    await cleanUp();
  };
  try {
    for (const [address, port] of natted.endpoints) {
      const seen = await mappedAddress(address, port, ENDPOINT_LIMIT_MS);
      if (seen !== natted.mappedAs) {
        throw new Error(`the NAT presented this machine as ${seen}, not ${natted.mappedAs}`);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}

/** coturn in `network`'s namespace on `port`, behind a NAT that presents every client as `mappedAs`. */
export async function startStunBehindNat(network: StunNetwork, port: number, mappedAs: string): Promise<StunServer> {
  const { address } = network;
  const close = await startCoturnBehindNat(network, {
    addresses: [address],
    port,
    rule: `udp dport ${port} snat to ${mappedAs}`,
    mappedAs,
    endpoints: [[address, port]],
  });
  return { url: `stun:${address}:${port}`, close };
}

/** The demo's STUN server, or why it has none (the banner says it, and the WebRTC page shows its note). */
export type DemoStun = StunServer | { missing: string };

/**
 * The WebRTC page's STUN server for `npm run demo`: coturn presenting the
 * visitor as `visitorIp`, in the network namespace a browser run made already
 * (e2e/global-setup.ts), else in one of its own, made now and removed with
 * `close()`. Making it adds a network link, which a browser already open
 * notices once (a request in flight may fail) before the banner shows.
 */
export async function startDemoStun(port: number, visitorIp: string): Promise<DemoStun> {
  if (!hasCoturn()) return { missing: 'this machine has no coturn (apt install coturn)' };
  if (process.getuid?.() !== 0) return { missing: 'its network namespace and NAT need root' };
  let shared: StunNetwork | null = null;
  try {
    shared = sharedStunNetwork();
  } catch {
    // No browser run made one: the demo makes its own.
  }
  const made = shared ? null : await createStunNetwork().catch((err: Error) => err);
  if (made instanceof Error) return { missing: `its network namespace could not be made: ${made.message}` };
  const network = shared ?? made!.network;
  try {
    const server = await startStunBehindNat(network, port, visitorIp);
    return {
      url: server.url,
      close: async () => {
        await server.close();
        await made?.remove();
      },
    };
  } catch (err) {
    await made?.remove();
    return { missing: `coturn did not start: ${(err as Error).message}` };
  }
}
