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

export interface ServerProcess {
  child: ChildProcess;
  /** Every line the server wrote to standard output, as written. */
  text: string[];
  /** Everything written to standard error. */
  stderr: () => string;
  /** The lines that are JSON objects, parsed. */
  lines: Array<Record<string, unknown>>;
  apiUrl: string;
  frontUrl: string;
  /** The working directory it runs in. */
  cwd: string;
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

export interface StartOptions {
  /** The working directory (where a .env is looked for); a fresh empty one unless given. */
  cwd?: string;
}

/**
 * server.ts as production runs it, on free ports, with JSON logs unless `env`
 * says otherwise, its output kept line by line. The working directory is an
 * empty folder unless given, so a developer's .env never changes a test.
 * Ready once the front listener, which starts last, answers: whatever
 * LOG_LEVEL and LOG_FORMAT leave in the log.
 */
export async function startServer(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
  const cwd = options.cwd ?? (await mkdtemp(join(tmpdir(), 'netdiag-cwd-')));
  const child = spawn(process.execPath, ['--import', TSX, SERVER], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      BACKEND_PORT: String(apiPort),
      FRONTEND_PORT: String(frontPort),
      LOG_FORMAT: 'json',
      DATA_DIR: '/nonexistent-test-data',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  void exit.then(async () => {
    exited = true;
    if (!options.cwd) await rm(cwd, { recursive: true, force: true });
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const text: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    text.push(line);
    if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const frontUrl = `http://127.0.0.1:${frontPort}`;
  for (;;) {
    if (exited) throw new Error(`server exited early: ${text.join('\n')}\n${stderr}`);
    try {
      await (await request(`${frontUrl}/healthz`)).body.dump();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { child, text, stderr: () => stderr, lines, apiUrl: `http://127.0.0.1:${apiPort}`, frontUrl, cwd, exit };
}

/** Stops the server with SIGTERM and waits for it; the whole log is then in. */
export async function stopServer(server: ServerProcess): Promise<number | null> {
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
