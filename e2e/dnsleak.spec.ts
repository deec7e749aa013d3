import type { IncomingMessage } from 'node:http';
import type { Page } from '@playwright/test';
import { PROVIDER_ANSWERS } from '../demo/dns-leak-providers.js';
import { json, type ThirdParty } from './third-party.js';
import { expect, screenshots, test, type Watch } from './fixtures.js';

// The DNS leak page against the third-party fake: each provider's random
// names resolve to it, and it answers in that provider's shape with the
// resolver a test chooses. The visitor is 8.8.8.8 (the demo's proxy), which
// the demo's geolocation places in the United States, as 8.8.8.53; 193.0.0.10
// is in the Netherlands.

type Resolver = string | ((request: IncomingMessage) => string);
const PROVIDERS = {
  ipapi: /\.edns\.ip-api\.com$/,
  surfshark: /\.ipv4\.surfsharkdns\.com$/,
  ipleak: /-1\.ipleak\.net$/,
  fastly: /\.u\.fastly-analytics\.com$/,
} as const;

function answer(thirdParty: ThirdParty, resolvers: Record<keyof typeof PROVIDERS, Resolver>): void {
  const ip = (resolver: Resolver, request: IncomingMessage) =>
    typeof resolver === 'string' ? resolver : resolver(request);
  // Each in its provider's shape, as the demo's stand-ins answer (demo/dns-leak-providers.ts).
  for (const id of Object.keys(PROVIDERS) as Array<keyof typeof PROVIDERS>) {
    thirdParty.on(PROVIDERS[id], (req, res) =>
      json(res, PROVIDER_ANSWERS[id](ip(resolvers[id], req), req.headers.host ?? '')),
    );
  }
}

function block(thirdParty: ThirdParty, provider: keyof typeof PROVIDERS, watch: Watch): void {
  thirdParty.on(PROVIDERS[provider], (request) => request.socket.destroy());
  watch.allow(new RegExp(`request failed: https://[^/ ]*${PROVIDERS[provider].source.replace('$', '')}/`));
  watch.allow(/console error: Failed to load resource: net::ERR_/);
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
const verdict = (page: Page) => page.locator('.verdict');

test('resolvers in the visitor’s country: no sign of a leak, each resolver located, our own tag in the names', async ({
  page,
  thirdParty,
}) => {
  answer(thirdParty, { ipapi: '8.8.8.53', surfshark: '8.8.8.53', ipleak: '8.8.8.54', fastly: '8.8.8.55' });
  await page.goto('/dnsleak');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('DNS leak');
  await expect(verdict(page)).toContainText('No sign of a leak');
  await expect(verdict(page)).toContainText(
    'Your DNS queries are answered in United States, the same country as your address: no sign of a leak.',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible();
  for (const [name, ip] of [
    ['ip-api.com', '8.8.8.53'],
    ['Surfshark', '8.8.8.53'],
    ['IPLeak.net', '8.8.8.54'],
    ['Fastly', '8.8.8.55'],
  ] as const) {
    await expect(row(page, name)).toContainText(ip);
    await expect(row(page, name)).toContainText('United States');
    await expect(row(page, name)).toContainText('GOOGLE');
  }
  await expect(page.getByRole('region', { name: 'Your address' })).toContainText('8.8.8.8');

  const hosts = thirdParty.seen().map((r) => r.host);
  expect(
    hosts.filter((h) => /edns\.ip-api\.com$|fastly-analytics\.com$/.test(h)).every((h) => h.includes('netdiag')),
  ).toBe(true);
  expect(hosts.some((h) => h.includes('jason5ng32'))).toBe(false);
  expect(thirdParty.seen().every((r) => r.secure)).toBe(true);

  await screenshots(page, 'dnsleak');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'dnsleak-dark');
});

test('a resolver abroad: possible leak, naming the countries; a rerun asks fresh names', async ({
  page,
  thirdParty,
}) => {
  answer(thirdParty, { ipapi: '193.0.0.10', surfshark: '8.8.8.53', ipleak: '193.0.0.10', fastly: '8.8.8.53' });
  await page.goto('/dnsleak');
  await expect(verdict(page)).toContainText('Possible DNS leak');
  await expect(verdict(page)).toContainText(
    'Your DNS queries are answered in Netherlands and United States, your address is in United States: possible leak.',
  );
  await expect(verdict(page)).toContainText('If you use a VPN or a proxy');
  await expect(row(page, 'ip-api.com')).toContainText('Netherlands');
  await screenshots(page, 'dnsleak-leak');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'dnsleak-leak-dark');

  const first = new Set(thirdParty.seen().map((r) => r.host));
  answer(thirdParty, { ipapi: '8.8.8.53', surfshark: '8.8.8.53', ipleak: '8.8.8.53', fastly: '8.8.8.53' });
  await page.getByRole('button', { name: 'Test again' }).click();
  await expect(verdict(page)).toContainText('No sign of a leak');
  const again = thirdParty
    .seen()
    .map((r) => r.host)
    .filter((h) => !first.has(h));
  expect(again.length).toBeGreaterThanOrEqual(4);
});

test('a blocked provider is asked three times, then said to be blocked; the others still give the verdict', async ({
  page,
  thirdParty,
  watch,
}) => {
  answer(thirdParty, { ipapi: '8.8.8.53', surfshark: '8.8.8.53', ipleak: '8.8.8.53', fastly: '8.8.8.53' });
  block(thirdParty, 'surfshark', watch);
  await page.goto('/dnsleak');
  await expect(row(page, 'Surfshark')).toContainText(
    'No answer: a blocker, a firewall or an outage may stop this provider',
  );
  await expect(verdict(page)).toContainText('No sign of a leak');
  const asked = thirdParty.seen().filter((r) => PROVIDERS.surfshark.test(r.host));
  expect(new Set(asked.map((r) => r.host)).size).toBe(3);
});

test('every provider blocked: no verdict, and words on why', async ({ page, thirdParty, watch }) => {
  for (const provider of Object.keys(PROVIDERS) as Array<keyof typeof PROVIDERS>) block(thirdParty, provider, watch);
  await page.goto('/dnsleak');
  await expect(verdict(page)).toContainText('No provider could tell which resolver your lookups come from');
  await expect(page.getByText('No sign of a leak')).toHaveCount(0);
});

test('a provider that never answers times out after 5 seconds and is not asked again', async ({ page, thirdParty }) => {
  answer(thirdParty, { ipapi: '8.8.8.53', surfshark: '8.8.8.53', ipleak: '8.8.8.53', fastly: '8.8.8.53' });
  thirdParty.on(PROVIDERS.fastly, () => undefined);
  await page.goto('/dnsleak');
  await expect(row(page, 'ip-api.com')).toContainText('8.8.8.53');
  await expect(row(page, 'Fastly')).toContainText('Asking…');
  await expect(row(page, 'Fastly')).toContainText('No answer within 5 seconds', { timeout: 20_000 });
  await expect(verdict(page)).toContainText('No sign of a leak');
  expect(thirdParty.seen().filter((r) => PROVIDERS.fastly.test(r.host))).toHaveLength(1);
});

test('the DNS leak results round-trip through a shared report, addresses masked', async ({ page, thirdParty }) => {
  answer(thirdParty, { ipapi: '193.0.0.10', surfshark: '8.8.8.53', ipleak: '8.8.8.53', fastly: '8.8.8.53' });
  await page.goto('/dnsleak');
  await expect(verdict(page)).toContainText('Possible DNS leak');
  await expect(page.getByText('The report holds: DNS leak test.')).toBeVisible();
  await page.getByLabel('Hide the last part of every address').check();
  await page.getByRole('button', { name: 'Share report' }).click();
  const url = await page.getByLabel('Link to the report').inputValue();

  await page.goto(url);
  const section = page.getByRole('region', { name: 'DNS leak test' });
  await expect(section.getByRole('row')).toHaveCount(5);
  await expect(row(page, 'ip-api.com')).toContainText('193.0.0.x');
  await expect(row(page, 'ip-api.com')).toContainText('Netherlands');
  await expect(row(page, 'Fastly')).toContainText('8.8.8.x');
  await expect(row(page, 'Fastly')).toContainText('United States');
  await expect(section).not.toContainText('8.8.8.53');
  await screenshots(page, 'dnsleak-report');
});

test('a visitor on a LAN, or resolvers the database cannot place: the resolvers shown, and why there is no verdict', async ({
  page,
  thirdParty,
  watch,
}) => {
  answer(thirdParty, { ipapi: '193.0.0.10', surfshark: '8.8.8.53', ipleak: '8.8.8.53', fastly: '8.8.8.53' });
  const geo: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/geo-local')) geo.push(new URL(request.url()).searchParams.get('ip') ?? '');
  });
  await page.route('/api/client-ip', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"ip":"192.168.1.20","family":"IPv4"}' }),
  );
  await page.goto('/dnsleak');
  await expect(verdict(page)).toContainText(
    'Your DNS queries are answered in Netherlands and United States. Where your own address is could not be told',
  );
  await expect(page.getByRole('region', { name: 'Your address' })).toContainText('a private or local address');
  expect(geo).not.toContain('192.168.1.20');

  await page.unroute('/api/client-ip');
  await page.route(/\/api\/geo-local/, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"database not loaded"}' }),
  );
  watch.allow(/HTTP 503: .*\/api\/geo-local/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 503/);
  // A new visit: a located address is kept for the rest of a visit.
  await page.goto('/dnsleak');
  await expect(verdict(page)).toContainText('The resolvers were found, but where they are could not be looked up.');
  await expect(row(page, 'ip-api.com')).toContainText('Could not be located');
});
