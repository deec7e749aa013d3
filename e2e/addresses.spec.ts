import type { Page } from '@playwright/test';
import { expect, screenshots, test } from './fixtures.js';
import { json, type ThirdParty } from './third-party.js';

// The demo presents the browser as 8.8.8.8 on the site and on its IPv4-only
// hostname, and as 2001:4860:4860::8888 on its IPv6-only one (demo/demo.ts).
const V4 = '8.8.8.8';
const V6 = '2001:4860:4860::8888';

/** Every independent detector answers, as `answers` says (an address, or a status to fail with). */
async function detectorsAnswer(
  page: Page,
  thirdParty: ThirdParty,
  answers: Partial<Record<'cloudflare4' | 'cloudflare6' | 'ipify4' | 'ipify6' | 'ipip', string | number>> = {},
) {
  const { cloudflare4 = V4, cloudflare6 = V6, ipify4 = V4, ipify6 = V6, ipip = V4 } = answers;
  // IP-literal URLs are never resolved, so the resolver rules cannot send them to the fake.
  const trace = (ip: string | number) => async (route: Parameters<Parameters<Page['route']>[1]>[0]) =>
    typeof ip === 'number'
      ? route.fulfill({ status: ip, headers: { 'access-control-allow-origin': '*' }, body: '' })
      : route.fulfill({ headers: { 'access-control-allow-origin': '*' }, body: `fl=1\nip=${ip}\nloc=US\n` });
  await page.route('https://1.0.0.1/cdn-cgi/trace', trace(cloudflare4));
  await page.route('https://[2606:4700:4700::1111]/cdn-cgi/trace', trace(cloudflare6));
  const ipJson =
    (ip: string | number, shape: (ip: string) => unknown) => (_q: unknown, res: Parameters<typeof json>[0]) =>
      typeof ip === 'number' ? json(res, { error: 'down' }, ip) : json(res, shape(ip));
  thirdParty.on(
    'api4.ipify.org',
    ipJson(ipify4, (ip) => ({ ip })),
  );
  thirdParty.on(
    'api6.ipify.org',
    ipJson(ipify6, (ip) => ({ ip })),
  );
  thirdParty.on(
    'myip.ipip.net',
    ipJson(ipip, (ip) => ({ ret: 'ok', data: { ip, location: ['美国'] } })),
  );
  thirdParty.on(
    'ipv4.myexternalip.com',
    ipJson(cloudflare4, (ip) => ({ ip })),
  );
  thirdParty.on(
    'ipv6.myexternalip.com',
    ipJson(cloudflare6, (ip) => ({ ip })),
  );
}

const family = (page: Page, name: 'IPv4' | 'IPv6') => page.getByRole('region', { name });

test('every service sees the same address per family: each row located, the verdict says so', async ({
  page,
  thirdParty,
}) => {
  await detectorsAnswer(page, thirdParty);
  await page.goto('/addresses');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your addresses');
  await expect(family(page, 'IPv4').getByRole('status')).toHaveText(
    `Every service that answered sees the same IPv4 address: ${V4}.`,
  );
  await expect(family(page, 'IPv6').getByRole('status')).toHaveText(
    `Every service that answered sees the same IPv6 address: ${V6}.`,
  );
  const v4Rows = family(page, 'IPv4').getByRole('row');
  await expect(v4Rows.filter({ hasText: 'This site (IPv4)' })).toContainText(V4);
  await expect(v4Rows.filter({ hasText: 'ipify IPv4' })).toContainText('United States');
  await expect(family(page, 'IPv6').getByRole('row').filter({ hasText: 'This site (IPv6)' })).toContainText(V6);
  await expect(page.getByText('another address')).toHaveCount(0);
  await expect(page.getByText(/hostname \(setting/)).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `addresses-${scheme}`);
  }
});

test('a service that sees another address is marked, and the family’s verdict names both', async ({
  page,
  thirdParty,
}) => {
  await detectorsAnswer(page, thirdParty, { ipify4: '1.1.1.1' });
  await page.goto('/addresses');
  await expect(family(page, 'IPv4').getByRole('status')).toHaveText(
    `Services see 2 different IPv4 addresses: ${V4}, 1.1.1.1. Some destinations reach you another way.`,
  );
  const ipify = family(page, 'IPv4').getByRole('row').filter({ hasText: 'ipify IPv4' });
  await expect(ipify).toContainText('1.1.1.1');
  await expect(ipify).toContainText('another address');
  await expect(family(page, 'IPv4').getByText('another address')).toHaveCount(1);
});

test('a blocked service, one that never answers and a missing per-family hostname are each said in words', async ({
  page,
  thirdParty,
  watch,
}) => {
  watch.allow(/1\.0\.0\.1|myexternalip|api6\.ipify\.org/);
  watch.allow(
    /console error: Failed to load resource: (net::ERR_BLOCKED_BY_CLIENT|the server responded with a status of 503)/,
  );
  await detectorsAnswer(page, thirdParty, { cloudflare4: 503 });
  await page.route('https://1.0.0.1/cdn-cgi/trace', (route) => route.abort('blockedbyclient'));
  // ipify's IPv6 host takes the request and never answers.
  thirdParty.on('api6.ipify.org', () => undefined);
  await page.route('**/site-settings.json', (route) =>
    route.fulfill({ json: { addresses: { ipv4Origin: null, ipv6Origin: null }, speedTest: { cloudflare: false } } }),
  );
  await page.goto('/addresses');
  const v4 = family(page, 'IPv4');
  await expect(v4.getByRole('row').filter({ hasText: 'Cloudflare IPv4' })).toContainText(
    'Not reachable (blocked, or no connection in this family)',
  );
  await expect(family(page, 'IPv6').getByRole('row').filter({ hasText: 'ipify IPv6' })).toContainText(
    'No answer within 5 seconds',
    { timeout: 15_000 },
  );
  await expect(v4.getByText('This server has no IPv4-only hostname (setting IPV4_ONLY_ORIGIN)')).toBeVisible();
  await expect(v4.getByRole('row').filter({ hasText: 'This site (IPv4)' })).toHaveCount(0);
});

test('the addresses and their places go into the shared report, masked when asked', async ({ page, thirdParty }) => {
  await detectorsAnswer(page, thirdParty);
  await page.goto('/addresses');
  await expect(family(page, 'IPv6').getByRole('status')).toContainText('the same IPv6 address');
  await expect(page.getByText('The report holds: IP address details.')).toBeVisible();
  await page.getByLabel('Hide the last part of every address').check();
  await page.getByRole('button', { name: 'Share report' }).click();
  const url = await page.getByLabel('Link to the report').inputValue();
  await page.goto(url);
  const card = page.locator('.geo-card').filter({ hasText: 'ipify IPv4' });
  await expect(card).toContainText('8.8.8.x');
  await expect(card).toContainText('United States');
  await expect(page.locator('.geo-card').filter({ hasText: 'This site (IPv6)' })).toContainText('2001:4860:4860:0:x');
  await expect(page.getByText(V4, { exact: true })).toHaveCount(0);
});
