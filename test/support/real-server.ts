import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { freePorts } from './free-ports.js';

// Absolute, so the server can run from any working directory.
const TSX = import.meta.resolve('tsx');
const SERVER = join(APP_ROOT, 'server.ts');

export interface Running {
  child: ChildProcess;
  /** Every line the server wrote to standard output, as written. */
  text: string[];
  /** The lines that are JSON objects, parsed. */
  lines: Array<Record<string, unknown>>;
  /** Everything written to standard error so far. */
  stderr: () => string;
  apiUrl: string;
  frontUrl: string;
  /** The working directory it runs in. */
  cwd: string;
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

export interface StartOptions {
  /** The working directory (where a .env is looked for); a fresh empty one unless given. */
  cwd?: string;
  /** The open-files limit (soft and hard) it runs under, through prlimit(1); the inherited one unless given. */
  nofile?: number;
}

/**
 * server.ts as production runs it, on free ports, with its standard output
 * kept line by line; returns as soon as the process is started. The working
 * directory is an empty folder unless given, so a developer's .env never
 * changes a test.
 */
export async function spawnServer(env: Record<string, string>, options: StartOptions = {}): Promise<Running> {
  const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
  const cwd = options.cwd ?? (await mkdtemp(join(tmpdir(), 'netdiag-cwd-')));
  const node = [process.execPath, '--import', TSX, SERVER];
  // prlimit execs the command, so the child's pid is the server's own.
  const [command, ...args] = options.nofile
    ? ['prlimit', `--nofile=${options.nofile}:${options.nofile}`, ...node]
    : node;
  const settings: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    BACKEND_PORT: String(apiPort),
    FRONTEND_PORT: String(frontPort),
    LOG_FORMAT: 'json',
    DATA_DIR: '/nonexistent-test-data',
    // A busy test machine lags the event loop by itself; see test/support/app.ts.
    LOAD_SHEDDING: 'false',
    // Stopped by the tests, not by a load balancer: no drain unless a test asks for one.
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  };
  const child = spawn(command!, args, { cwd, env: settings, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  if (!options.cwd) void exit.then(() => rm(cwd, { recursive: true, force: true }));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const text: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    text.push(line);
    if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return {
    child,
    text,
    lines,
    stderr: () => stderr,
    // A test may choose the ports itself.
    apiUrl: `http://127.0.0.1:${settings.BACKEND_PORT}`,
    frontUrl: `http://127.0.0.1:${settings.FRONTEND_PORT}`,
    cwd,
    exit,
  };
}

/**
 * spawnServer, ready once the front listener, which starts last, answers its
 * health route, and start-up's steps are over (the API's /readyz names none
 * as loading): whatever LOG_LEVEL and LOG_FORMAT leave in the log, and
 * whether or not the site is built.
 */
export async function startServer(env: Record<string, string>, options: StartOptions = {}): Promise<Running> {
  const server = await spawnServer(env, options);
  let exited = false;
  void server.exit.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited early: ${server.text.join('\n')}\n${server.stderr()}`);
    try {
      await (await request(`${server.frontUrl}/healthz`)).body.dump();
      const readyz = await request(`${server.apiUrl}/readyz`);
      if (!('loading' in ((await readyz.body.json()) as object))) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops the server with SIGTERM and waits for it; the whole log is then in. */
export async function stopServer(server: Running): Promise<number | null> {
  server.child.kill('SIGTERM');
  const [code] = await server.exit;
  return code;
}

/** Override settings that point every upstream at a loopback port nothing listens on: each call fails at once, the same way on every machine. */
export async function closedUpstreams(): Promise<Record<string, string>> {
  const [port] = (await freePorts(1)) as [number];
  return {
    UPSTREAM_OVERRIDE_ORIGIN: `http://127.0.0.1:${port}`,
    DNS_OVERRIDE_SERVER: `127.0.0.1:${port}`,
    WHOIS_OVERRIDE_SERVER: `127.0.0.1:${port}`,
  };
}
