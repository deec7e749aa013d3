import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { freePorts } from './free-ports.js';

export interface Running {
  child: ChildProcess;
  /** Every line the server wrote to standard output, as written. */
  text: string[];
  /** The lines that are JSON objects, parsed. */
  lines: Array<Record<string, unknown>>;
  apiUrl: string;
  frontUrl: string;
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

/**
 * server.ts as production runs it, on free ports, with its standard output
 * kept line by line; returns as soon as the process is started.
 */
export async function spawnServer(env: Record<string, string>): Promise<Running> {
  const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: APP_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      BACKEND_PORT: String(apiPort),
      FRONTEND_PORT: String(frontPort),
      LOG_FORMAT: 'json',
      DATA_DIR: '/nonexistent-test-data',
      // A busy test machine lags the event loop by itself; see test/support/app.ts.
      LOAD_SHEDDING: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const text: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    text.push(line);
    if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { child, text, lines, apiUrl: `http://127.0.0.1:${apiPort}`, frontUrl: `http://127.0.0.1:${frontPort}`, exit };
}

/**
 * spawnServer, ready once the front listener, which starts last, answers:
 * whatever LOG_LEVEL and LOG_FORMAT leave in the log.
 */
export async function startServer(env: Record<string, string>): Promise<Running> {
  const server = await spawnServer(env);
  let exited = false;
  void server.exit.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited early: ${server.text.join('\n')}`);
    try {
      await (await request(`${server.frontUrl}/`)).body.dump();
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Stops the server with SIGTERM and waits for it; the whole log is then in. */
export async function stopServer(server: Running): Promise<number | null> {
  server.child.kill('SIGTERM');
  const [code] = await server.exit;
  return code;
}
