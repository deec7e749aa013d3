import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const START_LIMIT_MS = 15_000;
const STUN_PORT = 3478;

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

/** Asks `host` until it answers a binding request; the address it saw. */
async function mappedAddress(host: string, limitMs: number): Promise<string> {
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
      socket.send(request, STUN_PORT, host);
      const seen = await Promise.race([answered, new Promise<null>((resolve) => setTimeout(() => resolve(null), 250))]);
      if (seen) return seen;
      if (Date.now() > deadline) throw new Error(`the STUN server at ${host} did not answer within ${limitMs} ms`);
    }
  } finally {
    socket.close();
  }
}

/** A /30 of the benchmarking range (RFC 2544) no interface of this machine uses yet. */
function freeSubnet(): string {
  const used = Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address ?? '');
  for (;;) {
    const base = `198.18.${randomInt(0, 256)}.${4 * randomInt(0, 64)}`;
    const prefix = base.slice(0, base.lastIndexOf('.') + 1);
    const last = Number(base.slice(base.lastIndexOf('.') + 1));
    if (!used.some((a) => a === `${prefix}${last + 1}` || a === `${prefix}${last + 2}`)) return base;
  }
}

/**
 * A real STUN server, Debian's coturn (STUN only: no TURN, TLS, CLI or
 * database), in a network namespace of its own behind a NAT that presents
 * every client as `mappedAs`: the browser, on this machine, then gets a
 * server-reflexive candidate as it would behind a home router, with an
 * address the demo's geolocation fixtures know. (On one loopback there is no
 * NAT, and libwebrtc drops a reflexive candidate equal to a local address.)
 * Needs root (network namespaces, nftables); everything it makes goes with
 * `close()`: the namespace takes its veth pair and its NAT rule along.
 */
export async function startStunBehindNat(mappedAs: string): Promise<StunServer> {
  const id = randomBytes(3).toString('hex');
  const ns = `e2e-stun-${id}`;
  const outside = `stun${id}o`;
  const inside = `stun${id}i`;
  const base = freeSubnet();
  const prefix = base.slice(0, base.lastIndexOf('.') + 1);
  const last = Number(base.slice(base.lastIndexOf('.') + 1));
  const [here, there] = [`${prefix}${last + 1}`, `${prefix}${last + 2}`];
  const dir = await mkdtemp(join(tmpdir(), 'e2e-stun-'));
  const cleanUp = async () => {
    await run('ip', ['netns', 'del', ns]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('ip', ['netns', 'add', ns]);
    await run('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', ns]);
    await run('ip', ['addr', 'add', `${here}/30`, 'dev', outside]);
    await run('ip', ['link', 'set', outside, 'up']);
    await run('ip', ['-n', ns, 'addr', 'add', `${there}/30`, 'dev', inside]);
    await run('ip', ['-n', ns, 'link', 'set', inside, 'up']);
    await run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    await run('ip', ['-n', ns, 'route', 'add', 'default', 'via', here]);
    // The NAT: packets reaching the STUN port arrive from `mappedAs`; conntrack turns the answers back.
    await writeFile(
      join(dir, 'nat.nft'),
      `table ip nat {\n chain input {\n  type nat hook input priority 100;\n  udp dport ${STUN_PORT} snat to ${mappedAs}\n }\n}\n`,
    );
    await run('ip', ['netns', 'exec', ns, 'nft', '-f', join(dir, 'nat.nft')]);
    await writeFile(
      join(dir, 'turnserver.conf'),
      [
        `listening-ip=${there}`,
        `listening-port=${STUN_PORT}`,
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
  const child = spawn('ip', ['netns', 'exec', ns, 'turnserver', '-c', join(dir, 'turnserver.conf')], {
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
    const seen = await mappedAddress(there, START_LIMIT_MS);
    if (seen !== mappedAs) throw new Error(`the NAT presented this machine as ${seen}, not ${mappedAs}`);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}; coturn said: ${output}`);
  }
  return { url: `stun:${there}:${STUN_PORT}`, close: stop };
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
