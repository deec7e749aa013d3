import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real STUN server, Debian's coturn, for the demo's WebRTC page and the
// browser tests alike: STUN only (no TURN, TLS, CLI or database), answering
// only once it has answered a binding request of ours.

const START_LIMIT_MS = 15_000;

export interface Coturn {
  /** The server as a STUN list names it. */
  url: string;
  /** The address it saw our own binding request come from. */
  sawUs: string;
  close(): Promise<void>;
}

/** Whether this machine has coturn's `turnserver` on its PATH. */
export function hasCoturn(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v turnserver'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
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
export async function mappedAddress(host: string, port: number, limitMs: number): Promise<string> {
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

/**
 * coturn on the IPv4 `address` (or each of several) and `port`, inside the
 * network namespace `namespace` when one is given (`ip netns exec`, which
 * needs root). On two addresses coturn also answers on `port` + 1 (RFC 5780's
 * alternate port). `url` and `sawUs` are the first address's.
 */
export async function startCoturn(addresses: string | string[], port: number, namespace?: string): Promise<Coturn> {
  const listening = typeof addresses === 'string' ? [addresses] : addresses;
  const address = listening[0]!;
  const dir = await mkdtemp(join(tmpdir(), 'coturn-'));
  await writeFile(
    join(dir, 'turnserver.conf'),
    [
      ...listening.map((each) => `listening-ip=${each}`),
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
  const command = ['turnserver', '-c', join(dir, 'turnserver.conf')];
  const [file, ...args] = namespace ? ['ip', 'netns', 'exec', namespace, ...command] : command;
  const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('error', (err) => keep(Buffer.from(err.message)));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const sawUs = await mappedAddress(address, port, START_LIMIT_MS);
    return { url: `stun:${address}:${port}`, sawUs, close };
  } catch (err) {
    await close();
    throw new Error(`${(err as Error).message}; coturn said: ${output}`);
  }
}
