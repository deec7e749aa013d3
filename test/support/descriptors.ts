import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { Running } from './real-server.js';

/** How many descriptors process `pid` holds now (Linux), read from /proc; 0 once it has exited. */
export function openDescriptors(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** Whether the server's process is still running; set as soon as it exits. */
export function watchExit(server: Running): { readonly exited: boolean } {
  const state = { exited: false };
  void server.exit.then(() => (state.exited = true));
  return state;
}

/**
 * `count` TCP connections to `origin` that send nothing; each is settled once
 * connected or refused (reset, closed), so the caller knows the load is in
 * place. A connection the server closes is kept in the list, already ended.
 */
export async function idleConnections(origin: string, count: number): Promise<Socket[]> {
  const { hostname, port } = new URL(origin);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ host: hostname, port: Number(port) });
          socket.once('connect', () => resolve(socket));
          socket.once('error', () => resolve(socket));
          socket.once('close', () => resolve(socket));
        }),
    ),
  );
}

/** Polls `url` until it answers 200, for at most `ms`; the last status (0: no answer) otherwise. */
export async function statusWithin(url: string, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let status = 0;
  while (Date.now() < end) {
    try {
      const res = await request(url, { headersTimeout: 2000, bodyTimeout: 2000 });
      await res.body.dump();
      status = res.statusCode;
      if (status === 200) return status;
    } catch {
      status = 0;
    }
    await sleep(100);
  }
  return status;
}
