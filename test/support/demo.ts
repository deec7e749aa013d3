import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { APP_ROOT } from '../../lib/app-root.js';
import { startAllFakes } from './fakes.js';

// npm run demo: the real server.ts, every upstream answered by loopback fakes,
// so a newcomer without keys or internet sees every route answer.
const log = pino({ level: 'info' });
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

log.info(
  {
    front: `http://127.0.0.1:${FRONT_PORT}/`,
    api: `http://127.0.0.1:${API_PORT}/api/configs`,
    fakeUpstream: fakes.http.origin,
  },
  'demo starting: open the front URL in a browser; API calls need a Referer from localhost (curl -H "Referer: http://localhost/" ...)',
);

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
