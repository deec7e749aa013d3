import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { freePorts } from '../support/free-ports.js';
import { DEMO_ADDRESSES } from '../support/fake-routes/demo-addresses.js';
import { DEMO_ADDRESSES_LINE } from '../../demo/banner.js';

const LAST_LINE = 'Ctrl-C stops it.';

test('npm run demo ends its start with a banner whose addresses and three curl examples work as printed, naming the demo addresses', async (t) => {
  const [api, front] = (await freePorts(2)) as [number, number];
  const demo = spawn(process.execPath, ['--import', 'tsx', 'demo/demo.ts'], {
    cwd: APP_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      BACKEND_PORT: String(api),
      FRONTEND_PORT: String(front),
      LOG_FORMAT: 'json',
      LOAD_SHEDDING: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = once(demo, 'exit');
  t.after(async () => {
    if (demo.exitCode === null) demo.kill('SIGINT');
    await exit;
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: demo.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line === LAST_LINE) resolve();
    });
    void exit.then(() => reject(new Error(`the demo exited before its banner:\n${lines.join('\n')}`)));
  });
  const banner = lines.slice(lines.findIndex((l) => l.startsWith('netdiag-backend demo:')));
  assert.ok(banner.length <= 10, 'a short banner');
  assert.ok(!banner.some((l) => l.includes('127.0.0.1')), 'no address the Referer gate refuses');
  // The service's own listening lines come before the banner; the one to open is the proxy's, and no other.
  const offered = lines
    .filter((l) => / listener |\bopen\b/.test(l))
    .flatMap((l) => [...l.matchAll(/(?:localhost|127\.0\.0\.1|\[::1\]):(\d+)/g)].map((m) => Number(m[1])));
  assert.deepEqual(
    [...new Set(offered)].filter((port) => port !== api && port !== front),
    [],
    `an address that bypasses the stand-in proxy:\n${lines.join('\n')}`,
  );

  // The site's address works once the site is built; until then the banner says so, and the address says so too.
  const notBuilt = banner.some((l) => l.includes('not built yet (npm run build)'));
  const pages = banner.flatMap((l) => /^\s+[a-z ]+:\s+(?:.*, then )?(http:\/\/\S+)$/.exec(l)?.[1] ?? []);
  assert.deepEqual(pages, [`http://localhost:${front}/`, `http://localhost:${front}/readyz`]);
  for (const url of pages) {
    const res = await request(url);
    const body = await res.body.text();
    if (notBuilt && url.endsWith(`${front}/`)) {
      assert.match(`${res.statusCode} ${body}`, /^503 [\s\S]*npm run build/, url);
    } else assert.equal(res.statusCode, 200, url);
  }

  // The addresses to try are exactly those the fakes hold data for (test/demo/demo-addresses.test.ts checks them).
  const named = banner.find((l) => l.startsWith(DEMO_ADDRESSES_LINE));
  assert.deepEqual(named?.slice(DEMO_ADDRESSES_LINE.length).split(', '), [...DEMO_ADDRESSES]);

  const curls = banner.filter((l) => l.trim().startsWith('curl '));
  assert.equal(curls.length, 3);
  const listeners = new Set<string>();
  for (const command of curls) {
    // curl -H 'Name: value' URL, the URL bare or in single quotes: what a shell would pass.
    const [, header, url] = /^\s*curl -H '([^']+)' '?([^' ]+)'?$/.exec(command) ?? [];
    assert.ok(header && url, command);
    const colon = header.indexOf(':');
    const res = await request(url, { headers: { [header.slice(0, colon)]: header.slice(colon + 1).trim() } });
    const body = await res.body.text();
    assert.equal(res.statusCode, 200, `${command}: ${body.slice(0, 200)}`);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    listeners.add(new URL(url).port);
  }
  assert.deepEqual([...listeners].sort(), [String(api), String(front)].sort(), 'the examples show both listeners');
});
