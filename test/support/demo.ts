import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { startAllFakes } from './fakes.js';
import { demoBanner } from './demo-banner.js';

// npm run demo: the real server.ts, every upstream answered by loopback fakes,
// so a newcomer without keys or internet sees every route answer.
const API_PORT = process.env.BACKEND_PORT ?? '11966';
const FRONT_PORT = process.env.FRONTEND_PORT ?? '18966';

const fakes = await startAllFakes();
const dataDir = await mkdtemp(join(tmpdir(), 'netdiag-demo-'));

const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  cwd: APP_ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    ...fakes.env,
    BACKEND_PORT: API_PORT,
    FRONTEND_PORT: FRONT_PORT,
    DATA_DIR: dataDir,
  },
});

// The banner comes last, once the front listener (the last to start) answers.
void (async () => {
  while (child.exitCode === null) {
    try {
      await (await request(`http://127.0.0.1:${FRONT_PORT}/healthz`)).body.dump();
      const page = await request(`http://127.0.0.1:${FRONT_PORT}/`);
      await page.body.dump();
      process.stdout.write(demoBanner({ api: API_PORT, front: FRONT_PORT }, page.statusCode === 200));
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
})();

async function stopAll(): Promise<void> {
  await fakes.close();
  await rm(dataDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
const [code] = (await once(child, 'exit')) as [number | null];
await stopAll();
process.exitCode = code ?? 0;
