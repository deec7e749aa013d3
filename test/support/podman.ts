import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { fromAppRoot } from '../../lib/app-root.js';

const run = promisify(execFile);

/**
 * Podman (Debian's package; `.ci/run` installs it, with runc, debootstrap and
 * podman-compose) under the settings this sandbox needs, which the tests hand
 * it through CONTAINERS_CONF rather than the machine's /etc.
 */
export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF: fromAppRoot('test/support/containers.conf') };

/** The image the tests build from the Dockerfile; compose.yaml's name for it is tagged too. */
export const IMAGE = 'localhost/netdiag-backend:test';
export const COMPOSE_IMAGE = 'localhost/netdiag-backend:latest';
export const BASE_IMAGE = 'docker.io/library/node:22-bookworm-slim';

/** Runs podman (or podman-compose with `program`), returning its standard output; a failure throws with its standard error. */
export async function podman(args: string[], program = 'podman', timeoutMs = 5 * 60_000): Promise<string> {
  try {
    const { stdout } = await run(program, args, {
      env: PODMAN_ENV,
      cwd: fromAppRoot('.'),
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${(err as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** Runs a command to its end with podman's settings, its output passed through (a long build shows its progress). */
async function runLoud(command: string, args: string[], timeoutMs: number): Promise<void> {
  const child = spawn(command, args, {
    env: PODMAN_ENV,
    cwd: fromAppRoot('.'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/** The repository the test image says it was built from (the OCI source label). */
export const IMAGE_SOURCE = 'https://source.example/netdiag-backend';

export interface Built {
  /** Seconds the build of the image took (the base stand-ins excluded). */
  buildSeconds: number;
}

/**
 * The stand-in base images (test/support/stand-in-bases.sh: a cold machine
 * spends minutes on them once), then the image from the Dockerfile, in
 * Docker's format so its HEALTHCHECK is kept, tagged for the tests and for
 * compose.yaml. `--network host`: npm ci reaches the registry from the build.
 */
export async function buildImage(): Promise<Built> {
  await runLoud(fromAppRoot('test/support/stand-in-bases.sh'), [], 30 * 60_000);
  const started = Date.now();
  await runLoud(
    'podman',
    [
      'build',
      '--quiet',
      '--pull=never',
      '--network',
      'host',
      '--format',
      'docker',
      '--build-arg',
      `SOURCE=${IMAGE_SOURCE}`,
      '-t',
      IMAGE,
      '-t',
      COMPOSE_IMAGE,
      '.',
    ],
    30 * 60_000,
  );
  return { buildSeconds: (Date.now() - started) / 1000 };
}

export async function packageVersion(): Promise<string> {
  return (JSON.parse(await readFile(fromAppRoot('package.json'), 'utf8')) as { version: string }).version;
}
