import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshots, tabTo, test } from './fixtures.js';
import type { ThirdParty } from './third-party.js';
import { Nginx } from '../test/support/nginx.js';

// The speed tool against the real front listener (the demo's own /speed
// endpoints) and against Cloudflare's endpoints faked on loopback, with the
// real @cloudflare/speedtest engine in Chromium. Sizes are the smallest
// offered, so a run takes seconds.

const CORS = { 'access-control-allow-origin': '*', 'timing-allow-origin': '*' };

/** speed.cloudflare.com as the engine meets it: exact byte counts, CORS, timing access and a server time. */
function fakeCloudflare(thirdParty: ThirdParty, down?: (req: IncomingMessage, res: ServerResponse) => boolean) {
  thirdParty.on('speed.cloudflare.com', (req, res) => {
    const url = new URL(req.url ?? '/', 'https://speed.cloudflare.com');
    if (url.pathname === '/cdn-cgi/trace') {
      res.writeHead(200, { ...CORS, 'content-type': 'text/plain' });
      return void res.end('fl=1\nh=speed.cloudflare.com\nip=9.9.9.9\nts=1\ncolo=FRA\nloc=DE\n');
    }
    if (url.pathname === '/__down') {
      if (down?.(req, res)) return;
      const bytes = Number(url.searchParams.get('bytes'));
      res.writeHead(200, {
        ...CORS,
        'content-type': 'application/octet-stream',
        'content-length': bytes,
        'server-timing': 'cfRequestDuration;dur=1',
      });
      // Paced over about 40 ms, as a network would: on loopback a small download ends faster than the
      // shortest request the engine measures (10 ms), and would read "not measured" on a quiet machine.
      const body = Buffer.alloc(bytes, 7);
      const step = Math.max(1, Math.ceil(bytes / 8));
      const send = (from: number): void => {
        if (from >= bytes) return void res.end();
        res.write(body.subarray(from, from + step));
        setTimeout(() => send(from + step), 5);
      };
      return send(0);
    }
    if (url.pathname === '/__up' && req.method === 'POST') {
      res.writeHead(200, { ...CORS, 'content-type': 'text/plain', 'server-timing': 'cfRequestDuration;dur=1' });
      return void res.end('ok');
    }
    res.writeHead(404, CORS);
    res.end();
  });
}

async function startRun(page: Page, target?: 'Cloudflare') {
  await page.goto('/speed');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Speed');
  if (target) await page.getByLabel(target, { exact: true }).check();
  // 25 MB: on loopback a smaller request ends within the 10 ms the engine needs to measure it, so a quiet
  // machine would read "not measured"; the ramp still starts at 100 kB, and a run stays within seconds.
  await page.getByLabel('Largest download').selectOption({ label: '25 MB' });
  await page.getByLabel('Largest upload').selectOption({ label: '25 MB' });
  await page.getByRole('button', { name: 'Start the test' }).click();
}

/** Waits for a run to end and checks it ended well: a failure shows its own words in the assertion. */
async function finished(page: Page) {
  await expect(page.locator('.speed-live')).not.toHaveText(/^(Measuring|$)/, { timeout: 90_000 });
  await expect(page.locator('.note-error')).toHaveCount(0);
  await expect(page.locator('.speed-live')).toHaveText(/^Finished: download [\d.,]+ Mb\/s, upload [\d.,]+ Mb\/s\.$/);
}

const value = (page: Page, label: string) =>
  page
    .locator('.row')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');

test('a run against this server measures both directions live, charts them and shares them as the report section', async ({
  page,
}) => {
  // A whole run, two screenshots and a report on a busy machine.
  test.slow();
  await page.goto('/speed');
  await expect(page.getByRole('button', { name: 'Start the test' })).toBeVisible();
  await screenshots(page, 'speed-idle');
  // 25 MB: on loopback a smaller request ends within the 10 ms the engine needs to measure it, so a quiet
  // machine would read "not measured"; the ramp still starts at 100 kB, and a run stays within seconds.
  await page.getByLabel('Largest download').selectOption({ label: '25 MB' });
  await page.getByLabel('Largest upload').selectOption({ label: '25 MB' });
  await tabTo(page, page.getByRole('button', { name: 'Start the test' }));
  await page.keyboard.press('Enter');

  const live = page.locator('.speed-live');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await finished(page);
  await expect(value(page, 'Download')).toHaveText(/^[\d.,]+ Mb\/s$/);
  await expect(value(page, 'Upload')).toHaveText(/^[\d.,]+ Mb\/s$/);
  await expect(value(page, 'Latency (idle)')).toHaveText(/^[\d.,]+ ms$/);
  await expect(value(page, 'Jitter (idle)')).toHaveText(/^[\d.,]+ ms$/);
  // The demo presents the browser as 8.8.8.8; the target is the site's own host.
  const host = new URL(page.url()).host;
  await expect(page.getByText(`From 8.8.8.8 to ${host}`)).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Download: \d+ transfers, fastest .* Mb\/s\. Upload: \d+ transfers/ }),
  ).toBeVisible();

  await screenshots(page, 'speed-done');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'speed-done-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const download = await value(page, 'Download').textContent();
  await expect(page.getByText('The report holds: Speed test.')).toBeVisible();
  await page.getByRole('button', { name: 'Share report' }).click();
  const link = page.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  await page.goto(await link.inputValue());
  await expect(page.getByRole('heading', { level: 2, name: 'Speed test' })).toBeVisible();
  await expect(value(page, 'Download')).toHaveText(download!);
  await expect(page.getByText('From 8.8.8.8')).toBeVisible();
  await screenshots(page, 'speed-report');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'speed-report-dark');
});

test('a run with the default sizes passes through the shipped nginx configuration', async ({ page, baseURL }) => {
  // 50 MB down and 25 MB up, each size several times, through one more hop.
  test.slow();
  const dir = await mkdtemp(join(tmpdir(), 'e2e-nginx-'));
  // deploy/nginx-instances.conf in front of the site (its 10 MB body cap refused the 25 MB upload with 413).
  const nginx = await Nginx.start(dir, [Number(new URL(baseURL!).port)]);
  try {
    await page.goto(`http://localhost:${new URL(nginx.origin).port}/speed`);
    await expect(page.getByLabel('Largest download')).toHaveValue(String(50_000_000));
    await expect(page.getByLabel('Largest upload')).toHaveValue(String(25_000_000));
    await page.getByRole('button', { name: 'Start the test' }).click();
    await finished(page);
  } finally {
    await nginx.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('the Cloudflare option measures against speed.cloudflare.com and sends it no summary', async ({
  page,
  thirdParty,
}) => {
  test.slow();
  fakeCloudflare(thirdParty);
  await startRun(page, 'Cloudflare');
  await expect(page.getByText(/the summary that site sends to Cloudflare afterwards is not sent/)).toBeVisible();
  await finished(page);
  await expect(page.getByText('From 9.9.9.9 to Cloudflare FRA')).toBeVisible();
  const paths = thirdParty.seen().map((r) => `${r.method} ${r.host}${r.url.split('?')[0]}`);
  expect(paths).toContain('GET speed.cloudflare.com/cdn-cgi/trace');
  expect(paths).toContain('GET speed.cloudflare.com/__down');
  expect(paths).toContain('POST speed.cloudflare.com/__up');
  // Only the measurement itself: no results log, no AIM collector.
  expect(paths.filter((p) => !/\/(cdn-cgi\/trace|__down|__up)$/.test(p))).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'speed-cloudflare-dark');
});

test('a provider that fails says so in words and offers to try again', async ({ page, thirdParty, watch }) => {
  watch.allow(/HTTP 500: https:\/\/speed\.cloudflare\.com\/__down/);
  watch.allow(/Failed to load resource: the server responded with a status of 500/);
  fakeCloudflare(thirdParty, (_req, res) => {
    res.writeHead(500, CORS);
    res.end('broken');
    return true;
  });
  await startRun(page, 'Cloudflare');
  await expect(page.getByText('Cloudflare refused the test (HTTP 500). Try again later.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.locator('.speed-live')).toHaveText('The test did not finish.');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await screenshots(page, 'speed-failed');
});

test('an unreachable provider is told apart from one that refuses', async ({ page, thirdParty, watch }) => {
  watch.allow(/request failed: https:\/\/speed\.cloudflare\.com\/__down/);
  watch.allow(/Failed to load resource: net::ERR_EMPTY_RESPONSE/);
  fakeCloudflare(thirdParty, (req) => {
    req.socket.destroy();
    return true;
  });
  await startRun(page, 'Cloudflare');
  await expect(page.getByText(/^Cloudflare could not be reached\. Check your connection/)).toBeVisible({
    timeout: 60_000,
  });
});

test('a provider that stops answering ends the run as a timeout', async ({ page, thirdParty }) => {
  const hanging: ServerResponse[] = [];
  fakeCloudflare(thirdParty, (_req, res) => {
    hanging.push(res);
    return true;
  });
  await page.clock.install();
  await startRun(page, 'Cloudflare');
  await expect(page.locator('.speed-live')).toHaveText('Measuring latency…');
  await expect.poll(() => hanging.length).toBeGreaterThan(0);
  await page.clock.runFor(31_000);
  await expect(
    page.getByText(
      'The test stopped: Cloudflare sent nothing back for 30 seconds. The connection may have stalled; try again.',
    ),
  ).toBeVisible();
  for (const res of hanging) res.destroy();
});

test('Stop ends a run and keeps what was measured', async ({ page, thirdParty }) => {
  const hanging: ServerResponse[] = [];
  fakeCloudflare(thirdParty, (req, res) => {
    // The latency pings answer; the first transfer hangs, so Stop meets a run in progress.
    if (new URL(req.url ?? '/', 'https://x').searchParams.get('bytes') === '0') return false;
    hanging.push(res);
    return true;
  });
  await startRun(page, 'Cloudflare');
  await expect.poll(() => hanging.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('.speed-live')).toHaveText(
    'Stopped. The figures below are what was measured before you stopped.',
  );
  await expect(page.getByRole('button', { name: 'Run again' })).toBeVisible();
  for (const res of hanging) res.destroy();
});
