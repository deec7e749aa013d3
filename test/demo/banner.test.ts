import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { freePorts } from '../support/free-ports.js';
import { DEMO_ADDRESSES } from '../support/fake-routes/demo-addresses.js';
import { BROWSER_FAKES_LINE, DEMO_ADDRESSES_LINE } from '../../demo/banner.js';
import { DEMO_PORTS, demoPortsEnv } from '../../demo/ports.js';

const LAST_LINE = 'Ctrl-C stops it.';

test('npm run demo ends its start with a banner whose addresses and three curl examples work as printed, naming the demo addresses', async (t) => {
  const ports = demoPortsEnv(await freePorts(Object.keys(DEMO_PORTS).length));
  const [api, front] = [Number(ports.BACKEND_PORT), Number(ports.FRONTEND_PORT)];
  const demo = spawn(process.execPath, ['--import', 'tsx', 'demo/demo.ts'], {
    cwd: APP_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      ...ports,
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
  assert.ok(banner.length <= 20, 'a short banner');
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

  // Each stand-in for a browser's third party is named with what it stands for, on the port its setting gave.
  const after = banner.slice(banner.indexOf(BROWSER_FAKES_LINE) + 1);
  const fakes = after.slice(
    0,
    after.findIndex((l) => !l.startsWith('  · ')),
  );
  assert.deepEqual(
    fakes.map((l) => /^ {2}· ([^:]+):/.exec(l)?.[1]),
    [
      'the probe network (latency, traceroute, censorship)',
      "the proxy rule test's echo services",
      'the sign-in provider',
      'the proxy-detection script',
      "the in-depth DNS leak test's zone",
      "the connectivity test's sites (Google, YouTube, GitHub, Cloudflare, Claude, ChatGPT, WeChat)",
      "the DNS leak test's providers (ip-api.com, Surfshark, IPLeak.net, Fastly), naming 8.8.8.53 as your resolver",
      // The machine's coturn, or the reason there is none (the test runs as root on a machine with coturn).
      process.getuid?.() === 0
        ? "the WebRTC test's STUN server (coturn, behind a NAT showing you as 8.8.8.8)"
        : 'no STUN server',
    ],
  );
  assert.ok(fakes[0]!.endsWith(`http://localhost:${ports.DEMO_PROBES_PORT}`), fakes[0]);
  assert.ok(fakes[1]!.includes(`http://ipv4-only.localhost:${ports.DEMO_IPV4_PORT}`), fakes[1]);
  assert.ok(fakes[1]!.includes(`http://ipv6-only.localhost:${ports.DEMO_IPV6_PORT}`), fakes[1]);
  assert.ok(fakes[2]!.includes(`http://localhost:${ports.DEMO_OIDC_PORT}, as ada-0001`), fakes[2]);
  assert.ok(fakes[3]!.endsWith(`http://localhost:${ports.DEMO_SCRIPT_PORT}`), fakes[3]);
  assert.ok(fakes[4]!.endsWith(': leak.localhost'), fakes[4]);
  assert.ok(fakes[5]!.endsWith(`: http://*.sites.localhost:${ports.DEMO_SITES_PORT}`), fakes[5]);
  assert.ok(fakes[6]!.includes(`http://*.fastly.localhost:${ports.DEMO_LEAK_PROVIDERS_PORT}`), fakes[6]);
  const icon = await request(`http://127.0.0.1:${ports.DEMO_SITES_PORT}/favicon.ico`, {
    headers: { host: `google.sites.localhost:${ports.DEMO_SITES_PORT}` },
  });
  assert.equal(icon.statusCode, 200);
  await icon.body.dump();
  const leak = await request(`http://127.0.0.1:${ports.DEMO_LEAK_PROVIDERS_PORT}/json`, {
    headers: { host: `abc.ipapi.localhost:${ports.DEMO_LEAK_PROVIDERS_PORT}` },
  });
  assert.deepEqual(((await leak.body.json()) as { dns: { ip: string } }).dns.ip, '8.8.8.53');
  const created = await request(`http://127.0.0.1:${ports.DEMO_PROBES_PORT}/v1/measurements`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'ping', target: 'example.com', locations: [{ country: 'DE' }] }),
  });
  assert.equal(created.statusCode, 202, await created.body.text());
  const discovery = await request(`http://localhost:${ports.DEMO_OIDC_PORT}/.well-known/openid-configuration`);
  assert.equal(
    ((await discovery.body.json()) as { issuer: string }).issuer,
    `http://localhost:${ports.DEMO_OIDC_PORT}`,
  );

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

test('a demo port that is not a port stops the demo, naming the setting and what it is for', async () => {
  const demo = spawn(process.execPath, ['--import', 'tsx', 'demo/demo.ts'], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH ?? '', DEMO_PROBES_PORT: 'eighty' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  demo.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const [code] = (await once(demo, 'exit')) as [number | null];
  assert.notEqual(code, 0);
  assert.match(
    said,
    /DEMO_PROBES_PORT must be a port number from 1 to 65535 \(the stand-in for the probe network's API\), not "eighty"/,
  );
});
