import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { APP_ROOT } from '../lib/app-root.js';
import { freePorts } from '../test/support/free-ports.js';
import { serverCommand } from './cores.js';
import { setTimeout as delay } from 'node:timers/promises';

export const REFERER = 'http://localhost/';

/** Builds dist/server.js as `npm run build` does (compiled, then bundled): what `npm start` runs. */
export function buildServer(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: APP_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build:server failed');
}

/**
 * How the service is started wherever it runs (npm start, the systemd units,
 * the image): glibc's tunables and node's flags, then node with the arguments
 * given. The bench starts it the same way.
 */
export const LAUNCHER = join(APP_ROOT, 'bin', 'start.sh');

/**
 * The launcher's GLIBC_TUNABLES, for the bare servers measured beside the
 * service (test/operations/process-settings.test.ts holds the two together).
 */
export const GLIBC_TUNABLES = 'glibc.malloc.trim_threshold=67108864:glibc.malloc.arena_max=2';

/** PATH with this process's node first: the launcher runs `node`, and the bench measures the node it runs on. */
export function launcherPath(): string {
  return [dirname(process.execPath), process.env.PATH ?? ''].join(':');
}

const TICKS_PER_S = 100;

/** User plus system CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Waits until `url` answers (with the allowed Referer), or throws when `child` exits first. */
export async function waitFor(url: string, child: ChildProcess): Promise<void> {
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited before answering ${url}`);
    try {
      const res = await request(url, { headers: { referer: REFERER } });
      await res.body.dump();
      return;
    } catch {
      await delay(100);
    }
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

export interface BenchServer {
  child: ChildProcess;
  origins: { api: string; front: string };
}

/** Starts server.ts through the launcher with `env` (on the servers' core when `pinned`), its output in a file, and waits until both listeners answer. */
export async function startServer(env: Record<string, string>, logFile: string, pinned: boolean): Promise<BenchServer> {
  const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
  const fd = openSync(logFile, 'a');
  const child = spawn(...serverCommand(pinned, ['--import', 'tsx', 'server.ts'], LAUNCHER), {
    cwd: APP_ROOT,
    env: {
      PATH: launcherPath(),
      ...env,
      BACKEND_PORT: String(apiPort),
      FRONTEND_PORT: String(frontPort),
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const origins = { api: `http://127.0.0.1:${apiPort}`, front: `http://127.0.0.1:${frontPort}` };
  await waitFor(`${origins.api}/api/configs`, child);
  await waitFor(`${origins.front}/`, child);
  return { child, origins };
}
