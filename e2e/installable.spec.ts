import type { Page } from '@playwright/test';
import { test, expect, screenshots } from './fixtures.js';
import { startSite } from './site-server.js';

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  display?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Resolves once a service worker controls the page (it claims open pages as it activates). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('the manifest names the app, its start and its icons; the worker, its script and the manifest are revalidated', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const answer = await request.get(href!);
  expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await answer.json()) as Manifest;
  expect(manifest).toMatchObject({ name: 'Netdiag: network diagnostics', short_name: 'Netdiag', start_url: '/' });
  expect(manifest.display).toBe('standalone');
  const icons = manifest.icons ?? [];
  for (const [sizes, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ]) {
    const icon = icons.find((i) => i.sizes === sizes && (i.purpose ?? 'any') === purpose);
    expect(icon, `a ${purpose} icon of ${sizes}`).toBeDefined();
    const image = await request.get(icon!.src);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    const size = await page.evaluate(async (src) => {
      const bitmap = await createImageBitmap(await (await fetch(src)).blob());
      return `${bitmap.width}x${bitmap.height}`;
    }, icon!.src);
    expect(size).toBe(sizes);
  }
  for (const path of ['/sw.js', '/registerSW.js', '/manifest.webmanifest']) {
    expect((await request.get(path)).headers()['cache-control'], path).toBe('no-cache');
  }
});

test('after a reload a service worker controls the page, serves the shell, and never answers or keeps /api or the settings', async ({
  page,
}) => {
  await page.goto('/');
  await controlled(page);
  const answers: { path: string; fromWorker: boolean }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === new URL(page.url()).origin) {
      answers.push({ path: url.pathname, fromWorker: response.fromServiceWorker() });
    }
  });
  await page.reload();
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  await page.waitForLoadState('networkidle');

  const shell = answers.filter((a) => a.path === '/' || /^\/assets\/index-/.test(a.path));
  expect(shell.length).toBeGreaterThanOrEqual(3);
  expect(shell.every((a) => a.fromWorker)).toBe(true);
  const service = answers.filter((a) => a.path.startsWith('/api/') || a.path === '/site-settings.json');
  expect(service.map((a) => a.path)).toEqual(
    expect.arrayContaining(['/api/client-ip', '/api/configs', '/site-settings.json']),
  );
  expect(service.filter((a) => a.fromWorker)).toEqual([]);

  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(kept).toEqual(expect.arrayContaining(['/index.html']));
  expect(kept.filter((path) => path.startsWith('/api') || path === '/site-settings.json')).toEqual([]);
});

test('with the service stopped, a page opened before still shows its frame and says in words that the service cannot be reached', async ({
  page,
  watch,
}) => {
  test.setTimeout(150_000);
  watch.allow(/(request failed: |console error: Failed to load resource: ).*net::ERR_CONNECTION_REFUSED/);
  const site = await startSite();
  try {
    await page.goto(`${site.url}/`);
    await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
    await controlled(page);
    // A page visited once is kept too (its chunk, as it loads).
    await page.getByRole('link', { name: 'WHOIS' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  } finally {
    await site.stop();
  }
  await page.goto(`${site.url}/`);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(
    page.getByText('The service could not be reached. Check your connection and try again.').first(),
  ).toBeVisible();
  await screenshots(page, 'offline-home');
  await page.getByRole('link', { name: 'WHOIS' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
