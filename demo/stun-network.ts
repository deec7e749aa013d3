import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);
// Ours: the pid of the run that made it, then a random part (unique per run).
const NAME = /^e2e-stun-(\d+)-[0-9a-f]{6}$/;

/** The network namespace the run's STUN servers live in, as the workers read it from their environment. */
export interface StunNetwork {
  namespace: string;
  /** The namespace's own address, where each test's coturn listens on a port of its own. */
  address: string;
  /** Its second address, for a coturn on two addresses (the NAT behaviour tests). */
  second: string;
}

/** A /29 of the benchmarking range (RFC 2544) no interface of this machine uses yet: this side's address and two for the namespace. */
function freeSubnet(): { here: string; there: string; second: string } {
  const used = Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address ?? '');
  for (;;) {
    const prefix = `198.18.${randomInt(0, 256)}.`;
    const last = 8 * randomInt(0, 32);
    const [here, there, second] = [1, 2, 3].map((i) => `${prefix}${last + i}`) as [string, string, string];
    // No address of the /29 in use: another run's /30 inside it would take part of it.
    const block = Array.from({ length: 8 }, (_, i) => `${prefix}${last + i}`);
    if (!block.some((address) => used.includes(address))) return { here, there, second };
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Ends what still runs in `namespace` (a coturn a killed worker left), then deletes it with its veth pair. */
async function removeNamespace(namespace: string): Promise<void> {
  const { stdout } = await run('ip', ['netns', 'pids', namespace]).catch(() => ({ stdout: '' }));
  for (const pid of stdout.split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await run('ip', ['netns', 'del', namespace]).catch(() => undefined);
}

/** Namespaces of earlier runs that were killed before their teardown; another run's, still going, stays. */
async function removeStale(): Promise<void> {
  const { stdout } = await run('ip', ['netns', 'list']);
  for (const line of stdout.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const creator = NAME.exec(name)?.[1];
    if (creator && !alive(Number(creator))) await removeNamespace(name);
  }
}

/**
 * One network namespace for the whole browser run, joined to this machine by
 * a veth pair, made before any browser starts and removed after the last one
 * closed. Chromium watches this namespace's addresses and links (NETLINK_ROUTE)
 * and aborts its requests in flight with ERR_NETWORK_CHANGED when one changes,
 * so nothing here may change while a browser runs: each test adds only a
 * coturn inside the namespace and an nftables rule there, which Chromium does
 * not watch. Needs root and `ip`.
 */
export async function createStunNetwork(): Promise<{ network: StunNetwork; remove(): Promise<void> }> {
  await removeStale();
  const id = randomBytes(3).toString('hex');
  const namespace = `e2e-stun-${process.pid}-${id}`;
  const [outside, inside] = [`stun${id}o`, `stun${id}i`];
  const { here, there, second } = freeSubnet();
  const remove = () => removeNamespace(namespace);
  try {
    await run('ip', ['netns', 'add', namespace]);
    await run('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', namespace]);
    // No IPv6 link-local address: the kernel would add it a second or so after the link comes up, maybe once a browser runs.
    await run('ip', ['link', 'set', outside, 'addrgenmode', 'none']);
    await run('ip', ['addr', 'add', `${here}/29`, 'dev', outside]);
    await run('ip', ['link', 'set', outside, 'up']);
    await run('ip', ['-n', namespace, 'addr', 'add', `${there}/29`, 'dev', inside]);
    await run('ip', ['-n', namespace, 'addr', 'add', `${second}/29`, 'dev', inside]);
    await run('ip', ['-n', namespace, 'link', 'set', inside, 'up']);
    await run('ip', ['-n', namespace, 'link', 'set', 'lo', 'up']);
    await run('ip', ['-n', namespace, 'route', 'add', 'default', 'via', here]);
  } catch (err) {
    await remove();
    throw err;
  }
  return { network: { namespace, address: there, second }, remove };
}

const ENV = {
  namespace: 'E2E_STUN_NETNS',
  address: 'E2E_STUN_ADDRESS',
  second: 'E2E_STUN_SECOND_ADDRESS',
  failure: 'E2E_STUN_FAILURE',
} as const;

/** Hands the network to the workers (they inherit the global setup's environment), or why there is none. */
export function shareStunNetwork(made: StunNetwork | Error): void {
  if (made instanceof Error) {
    process.env[ENV.failure] = made.message;
    return;
  }
  process.env[ENV.namespace] = made.namespace;
  process.env[ENV.address] = made.address;
  process.env[ENV.second] = made.second;
}

/** The run's network, in a worker. */
export function sharedStunNetwork(): StunNetwork {
  const [namespace, address, second] = [process.env[ENV.namespace], process.env[ENV.address], process.env[ENV.second]];
  if (namespace && address && second) return { namespace, address, second };
  throw new Error(
    `the browser run has no STUN network (e2e/global-setup.ts makes it; it needs root, ip): ${process.env[ENV.failure] ?? 'not made'}`,
  );
}
