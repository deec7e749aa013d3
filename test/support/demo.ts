import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { APP_ROOT } from '../../lib/app-root.js';
import { FakeUpstream } from './fake-upstream.js';
import { FakeDns } from './fake-dns.js';
import { FakeWhois } from './fake-whois.js';
import { registerAllFakeRoutes } from './fake-routes/index.js';

// npm run demo: the real server.ts, every upstream answered by loopback fakes,
// so a newcomer without keys or internet sees every route answer.
const log = pino({ level: 'info' });
const API_PORT = process.env.BACKEND_PORT ?? '11966';
const FRONT_PORT = process.env.FRONTEND_PORT ?? '18966';

// Placeholders: the fakes accept any value, and a set key switches its feature on.
const PLACEHOLDER_KEYS = {
  GEO_KEYED_A_API_KEY: 'demo-key',
  GEO_KEYED_B_API_KEY: 'demo-key',
  GEO_KEYED_C_API_KEY: 'demo-key',
  MAP_API_KEY: 'demo-key',
  MAC_LOOKUP_API_KEY: 'demo-key',
  PRIVATE_API_KEY: 'demo-key',
  PRIVATE_API_ENDPOINT: 'https://private-api.example/api',
  RADAR_API_KEY: 'demo-key',
  KV_ACCOUNT_ID: '0123456789abcdef0123456789abcdef',
  KV_NAMESPACE_ID: 'fedcba9876543210fedcba9876543210',
  GEODB_ACCOUNT_ID: 'demo-account',
  GEODB_LICENSE_KEY: 'demo-key',
};

const fake = await FakeUpstream.start();
registerAllFakeRoutes(fake);
const dns = await FakeDns.start();
dns.on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 300, data: '93.184.215.14' }] });
dns.on('example.com', 'AAAA', { answers: [{ type: 'AAAA', name: 'example.com', ttl: 300, data: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }] });
const whois = await FakeWhois.start();
const dataDir = await mkdtemp(join(tmpdir(), 'netdiag-demo-'));

const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  cwd: APP_ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    ...PLACEHOLDER_KEYS,
    BACKEND_PORT: API_PORT,
    FRONTEND_PORT: FRONT_PORT,
    DATA_DIR: dataDir,
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    DNS_OVERRIDE_SERVER: dns.address,
    WHOIS_OVERRIDE_SERVER: whois.address,
  },
});

log.info(
  {
    front: `http://127.0.0.1:${FRONT_PORT}/`,
    api: `http://127.0.0.1:${API_PORT}/api/configs`,
    fakeUpstream: fake.origin,
  },
  'demo starting: open the front URL in a browser; API calls need a Referer from localhost (curl -H "Referer: http://localhost/" ...)',
);

async function stopAll(): Promise<void> {
  await Promise.all([fake.close(), dns.close(), whois.close()]);
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
