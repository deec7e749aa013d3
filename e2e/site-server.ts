import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from '../test/support/free-ports.js';
import { DEMO_PORTS, demoPortsEnv } from '../demo/ports.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_LIMIT_MS = 90_000;

export interface RunningSite {
  /** The site as a visitor opens it: through the demo's loopback reverse-proxy stand-in. */
  url: string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { headers: { referer: 'http://localhost/' } });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Resolves once `url` answers its site and its API; fails when `child` exits or takes too long. */
async function answering(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await answers(`${url}/api/configs`)) || !(await answers(`${url}/`))) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it answered`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the service did not answer within ${START_LIMIT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

// Load shedding off: the browser and the service share a busy two-core machine, and a 503 there is no finding.
// No drain on SIGTERM: no load balancer watches a test's service, so stopping it need not wait.
const QUIET = { LOG_LEVEL: 'warn', LOAD_SHEDDING: 'false', SHUTDOWN_DRAIN_MS: '0' };

// The third parties the pages call from the browser, as the specs fake them per test (e2e/third-party.ts),
// in place of the demo's own stand-ins: Globalping's API, the built-in echo services, the proxy-detection
// script's origin and the leak-test zone, the connectivity sites, the DNS leak providers and the STUN servers
// by their real names, and no sign-in unless a spec starts a provider.
const PER_TEST_THIRD_PARTIES = {
  OIDC_ISSUER: '',
  GLOBALPING_API_BASE: 'https://api.globalping.io',
  RULE_TEST_ORIGINS: '',
  INVISIBILITY_SCRIPT_ORIGIN: 'https://proxydetectjs.ipcheck.ing',
  DNS_LEAK_ZONE: 'leak.ipcheck.ing',
  CONNECTIVITY_TARGETS: '',
  DNS_LEAK_PROVIDERS: 'ipapi,surfshark,ipleak,fastly',
  WEBRTC_STUN_SERVERS:
    'stun:stun.l.google.com:19302,stun:stun.voip.blackberry.com:3478,stun:global.stun.twilio.com:3478,stun:stun.cloudflare.com:3478',
};

/**
 * `npm run demo` on free ports: the real service on every loopback fake,
 * opened through the proxy that presents the browser as 8.8.8.8. Resolves once
 * the site and the API answer. `env` adds settings (a spec that needs another
 * configuration starts its own). The pages' third parties are the specs' own
 * fakes; `startDemo` keeps the demo's.
 */
export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  return startDemo({ ...PER_TEST_THIRD_PARTIES, ...env });
}

/** `npm run demo` as a newcomer runs it, with its own stand-ins for the pages' third parties, on free ports. */
export async function startDemo(env: Record<string, string> = {}): Promise<RunningSite> {
  const ports = demoPortsEnv(await freePorts(Object.keys(DEMO_PORTS).length));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'demo/demo.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...QUIET,
      ...ports,
      // The speed tool's Cloudflare option, so its tests reach it (speed.cloudflare.com is the third-party fake).
      SPEEDTEST_CLOUDFLARE: 'true',
      ...env,
    },
  });
  const url = `http://localhost:${ports.FRONTEND_PORT}`;
  await answering(child, url);
  return { url, stop: () => stopped(child) };
}

/**
 * The service alone (server.ts) on `env`, for a test that needs a setting the demo fixes or to see what
 * reached its own fakes (test/support/fakes.ts). Opened directly, so the browser is a visitor at 127.0.0.1.
 */
export async function startService(env: Record<string, string>): Promise<RunningSite> {
  const [api = 0, front = 0] = await freePorts(2);
  const dataDir = await mkdtemp(join(tmpdir(), 'netdiag-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...env,
      ...QUIET,
      BACKEND_PORT: String(api),
      FRONTEND_PORT: String(front),
      DATA_DIR: dataDir,
    },
  });
  const url = `http://localhost:${front}`;
  await answering(child, url);
  return {
    url,
    stop: async () => {
      await stopped(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
