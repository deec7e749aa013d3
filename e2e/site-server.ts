import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePorts } from '../test/support/free-ports.js';

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

/**
 * `npm run demo` on free ports: the real service on every loopback fake,
 * opened through the proxy that presents the browser as 8.8.8.8. Resolves once
 * the site and the API answer. `env` adds settings (a spec that needs another
 * configuration starts its own).
 */
export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  const [api = 0, front = 0] = await freePorts(2);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'demo/demo.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Load shedding off: the browser and the service share a busy two-core machine, and a 503 there is no finding.
    env: {
      ...process.env,
      BACKEND_PORT: String(api),
      FRONTEND_PORT: String(front),
      LOG_LEVEL: 'warn',
      LOAD_SHEDDING: 'false',
      // The speed tool's Cloudflare option, so its tests reach it (speed.cloudflare.com is the third-party fake).
      SPEEDTEST_CLOUDFLARE: 'true',
      ...env,
    },
  });
  const url = `http://localhost:${front}`;
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await answers(`${url}/api/configs`)) || !(await answers(`${url}/`))) {
    if (child.exitCode !== null) throw new Error(`the demo exited with ${child.exitCode} before it answered`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the demo did not answer within ${START_LIMIT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
