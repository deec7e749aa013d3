import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { randomInt } from 'node:crypto';

// A port handed out between the check and the server's listen must not be taken meanwhile. Ports the kernel gives
// to outgoing connections (and to listen(0)) come from the ephemeral range, so a busy machine's own clients can
// take one in that gap; ports below it are only ever taken by a listener that asks for them by number.
const EPHEMERAL_FIRST = ((): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
const LOWEST = 10_000;

function tryListen(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** `count` distinct loopback ports free right now, below the ephemeral range: all are held until all are known. */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  while (ports.length < count) {
    const port = randomInt(LOWEST, EPHEMERAL_FIRST);
    if (ports.includes(port)) continue;
    const server = await tryListen(port);
    if (!server) continue;
    held.push(server);
    ports.push(port);
  }
  await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
