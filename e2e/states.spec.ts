import type { Route } from '@playwright/test';
import { expect, screenshots, test } from './fixtures.js';

// The states a visitor meets that the demo's fakes never produce (a feature
// switched off, a limit reached, a database missing, a source failing, a
// visitor on a LAN). The browser answers the one API request in question
// itself; everything else still comes from the real service.

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  contentType: 'application/json',
  headers,
  body: JSON.stringify(body),
});

test('a feature switched off names the setting that turns it on', async ({ page }) => {
  await page.route('/api/configs', (route) =>
    route.fulfill(
      json(200, {
        map: false,
        ipInfo: false,
        ipChecking: false,
        ip2location: false,
        originalSite: false,
        cloudFlare: false,
        ipapiis: false,
        reportSharing: false,
      }),
    ),
  );
  await page.goto('/ip/8.8.8.8');
  const keyedB = page.locator('.geo-card').filter({ hasText: 'ipapi.is' });
  await expect(keyedB).toContainText('This is switched off on this server.');
  await expect(keyedB.locator('code')).toHaveText('GEO_KEYED_B_API_KEY');
  await expect(page.locator('.geo-card').filter({ hasText: 'IPCheck.ing' }).locator('code')).toHaveText([
    'PRIVATE_API_KEY',
    'PRIVATE_API_ENDPOINT',
  ]);
  await expect(page.locator('.geo-card').filter({ hasText: 'ip-api' })).toContainText('AS15169');
  await expect(page.locator('.map-section code')).toHaveText('MAP_API_KEY');
  await expect(page.locator('.share code')).toHaveText([
    'RADAR_API_KEY',
    'KV_ACCOUNT_ID',
    'KV_NAMESPACE_ID',
    'REPORT_STORE=local',
    'REPORT_STORE=redis',
    'REDIS_URL',
  ]);
  // The share box's longest setting names still fit a phone's width.
  await screenshots(page, 'features-off');
  await page.goto('/outages');
  await expect(page.locator('code')).toHaveText('RADAR_API_KEY');
});

test('too many requests says when to try again, and trying again works', async ({ page, watch }) => {
  watch.allow(/HTTP 429: .*\/api\/geo-free-a/);
  watch.allow(/status of 429/);
  let limited = true;
  await page.route(/\/api\/geo-free-a\?/, (route) =>
    limited ? route.fulfill(json(429, { message: 'Too Many Requests' }, { 'retry-after': '120' })) : route.fallback(),
  );
  await page.goto('/ip/8.8.8.8');
  const card = page.locator('.geo-card').filter({ hasText: 'ip-api' });
  await expect(card.getByRole('alert')).toHaveText(/Too many requests from your address\. Try again in 2 minutes\./);
  limited = false;
  await card.getByRole('button', { name: 'Try again' }).click();
  await expect(card).toContainText('Ashburn');
});

test('an older answer of a source arriving late never covers a newer one (a language switch, a retry)', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP 429: .*\/api\/geo-free-a/);
  watch.allow(/status of 429/);
  // The English ask is held; the switch to French asks again, and that answer comes first.
  const held = new Promise<Route>((resolve) => void page.route(/\/api\/geo-free-a\?.*lang=en/, resolve));
  await page.goto('/ip/8.8.8.8');
  const english = await held;
  const abandoned = page.waitForEvent('requestfailed', (request) => request === english.request());
  await page.locator('header').getByLabel('Language').selectOption('fr');
  const card = page.locator('.geo-card').filter({ hasText: 'ip-api' });
  await expect(card).toContainText('Virginie');
  // The newer ask ended the older one, so its 429, were it to come now, is no one's answer.
  await abandoned;
  await english.fulfill(json(429, { message: 'Too Many Requests' }, { 'retry-after': '120' })).catch(() => undefined);
  await expect(card).toContainText('Virginie');
  await expect(card.getByRole('alert')).toHaveCount(0);
});

test('a used-up quota on the private source is said plainly', async ({ page }) => {
  await page.route(/\/api\/geo-private\?/, async (route) => {
    const answer = await route.fetch();
    const record = (await answer.json()) as Record<string, unknown>;
    const gate = 'quota_exceeded';
    record.advancedData = { score: gate, tags: gate, operatorType: gate, proxyProtocol: gate, proxyProvider: gate };
    await route.fulfill({ response: answer, json: record });
  });
  await page.goto('/ip/8.8.8.8');
  const card = page.locator('.geo-card').filter({ hasText: 'IPCheck.ing' });
  await expect(card).toContainText('The monthly quota for the quality score, proxy and network type is used up.');
  await expect(card).toContainText('AS15169');
});

test('a geolocation database not loaded yet and a failing source each get their own words', async ({ page, watch }) => {
  watch.allow(/HTTP 50[03]: .*\/api\/geo-(local|free-b)/);
  watch.allow(/status of 50[03]/);
  await page.route(/\/api\/geo-local\?/, (route) =>
    route.fulfill(json(503, { error: 'Geolocation database not loaded' })),
  );
  await page.route(/\/api\/geo-free-b\?/, (route) =>
    route.fulfill(json(500, { error: 'The operation was aborted due to timeout' })),
  );
  await page.goto('/ip/8.8.8.8');
  await expect(page.locator('.geo-card').filter({ hasText: 'MaxMind' }).getByRole('alert')).toContainText(
    'The local geolocation database is not loaded on the server right now.',
  );
  const failing = page.locator('.geo-card').filter({ hasText: 'IP.SB' }).getByRole('alert');
  await expect(failing).toContainText('The source behind this lookup failed to answer.');
  await expect(failing).toContainText('The operation was aborted due to timeout');
  await expect(page.locator('.geo-card').filter({ hasText: 'IPinfo' })).toContainText('Mountain View');
});

test('a visitor on loopback or a LAN is told so and still gets the lookup box', async ({ page }) => {
  const geo: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/geo-/.test(request.url())) geo.push(request.url());
  });
  await page.route('/api/client-ip', (route) => route.fulfill(json(200, { ip: '192.168.1.20', family: 'IPv4' })));
  await page.goto('/');
  await expect(page.locator('.hero-ip')).toHaveText('192.168.1.20');
  await expect(page.getByRole('status')).toContainText('This is a loopback or private address');
  await expect(page.getByRole('search')).toBeVisible();
  // A geo request the page fired late would still be on its way: wait until nothing is.
  await page.waitForLoadState('networkidle');
  expect(geo).toEqual([]);
});

test('a deployment whose Referer gate does not know its hostname says which setting to fix', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP 403: .*\/api\/configs/);
  watch.allow(/status of 403/);
  await page.route('/api/configs', (route) => route.fulfill(json(403, { error: 'Access denied' })));
  await page.goto('/ip/8.8.8.8');
  await expect(page.getByRole('alert')).toHaveText(/its ALLOWED_DOMAINS setting does not list localhost\./);
});
