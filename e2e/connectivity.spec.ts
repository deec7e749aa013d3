import type { ThirdParty } from './third-party.js';
import { expect, screenshots, tabTo, test, type Watch } from './fixtures.js';

// The connectivity page against the third-party fake: every site's host name
// resolves to it. Any answer is "reachable" (the probe is no-cors, so even a
// 404 would be), so unreachable is a connection the fake cuts, and a timeout
// one it never answers.

const DEFAULTS = ['Google', 'YouTube', 'GitHub', 'Cloudflare', 'Claude', 'ChatGPT', 'WeChat'];

function answerEverySite(thirdParty: ThirdParty): void {
  thirdParty.on(/./, (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/x-icon' });
    response.end(Buffer.from([0, 0, 1, 0]));
  });
}

function cut(thirdParty: ThirdParty, host: string, watch: Watch): void {
  thirdParty.on(host, (request) => request.socket.destroy());
  watch.allow(new RegExp(`request failed: https://${host.replace(/\./g, '\\.')}/`));
  watch.allow(/console error: Failed to load resource: net::ERR_/);
}

const row = (page: import('@playwright/test').Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) });

test('every popular site reachable: each with its time, the summary read out, the icons asked over HTTPS', async ({
  page,
  thirdParty,
}) => {
  answerEverySite(thirdParty);
  await page.goto('/connectivity');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connectivity');
  const status = page.getByRole('status').filter({ hasText: 'sites tested' });
  await expect(status).toHaveText('7 sites tested: 7 reachable, 0 unreachable, 0 without an answer in time.');
  for (const name of DEFAULTS) {
    await expect(row(page, name)).toContainText('Reachable');
    await expect(row(page, name)).toContainText(/\d+ ms/);
  }
  const hosts = thirdParty.seen().map((r) => `${r.secure ? 'https' : 'http'}://${r.host}${r.url}`);
  expect(hosts).toContain('https://www.google.com/favicon.ico');
  expect(hosts).toContain('https://speed.cloudflare.com/favicon.ico');
  expect(hosts).toContain('https://res.wx.qq.com/a/wx_fed/assets/res/NTI4MWU5.ico');

  // Rerun by keyboard: the button is a button in the Tab order, and every site is asked again.
  const before = thirdParty.seen().length;
  await tabTo(page, page.getByRole('button', { name: 'Test all again' }));
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('7 sites tested: 7 reachable, 0 unreachable, 0 without an answer in time.');
  await expect.poll(() => thirdParty.seen().length - before).toBeGreaterThanOrEqual(7);

  await screenshots(page, 'connectivity');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'connectivity-dark');
});

test('a site whose connection is cut is unreachable, one that never answers is a timeout, each retested alone', async ({
  page,
  thirdParty,
  watch,
}) => {
  answerEverySite(thirdParty);
  cut(thirdParty, 'github.com', watch);
  thirdParty.on('claude.com', () => undefined);
  await page.goto('/connectivity');
  await expect(row(page, 'GitHub')).toContainText('Unreachable');
  await expect(row(page, 'Google')).toContainText('Reachable');
  await expect(row(page, 'Claude')).toContainText('No answer in time', { timeout: 20_000 });
  await expect(row(page, 'Claude')).toContainText('over 3,600 ms');
  await expect(page.getByRole('status').filter({ hasText: 'sites tested' })).toHaveText(
    '7 sites tested: 5 reachable, 1 unreachable, 1 without an answer in time.',
  );

  // The site comes back: its own button tests it alone.
  answerEverySite(thirdParty);
  const before = thirdParty.seen().length;
  await row(page, 'Claude').getByRole('button', { name: 'Test Claude again' }).click();
  await expect(row(page, 'Claude')).toContainText('Reachable');
  expect(
    thirdParty
      .seen()
      .slice(before)
      .map((r) => r.host),
  ).toEqual(['claude.com']);
  await screenshots(page, 'connectivity-failures');
});

test("the visitor's own sites and groups are added, tested, kept across a reload and removed", async ({
  page,
  thirdParty,
}) => {
  answerEverySite(thirdParty);
  await page.goto('/connectivity');
  await expect(row(page, 'Google')).toContainText('Reachable');

  const address = page.getByLabel('Address', { exact: true });
  await address.fill('http://plain.example.net');
  await page.getByRole('button', { name: 'Add site' }).click();
  await expect(page.getByText('Only https:// addresses can be tested from this page')).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Name').fill('Intranet');
  await address.fill('intranet.example.net');
  await address.press('Enter');
  const yours = page.getByRole('region', { name: 'Your sites' });
  await expect(row(page, 'Intranet')).toContainText('Reachable');
  await expect(yours).toContainText('intranet.example.net');
  expect(thirdParty.seen().some((r) => r.host === 'intranet.example.net' && r.url === '/favicon.ico')).toBe(true);

  await page.getByLabel('A group of popular sites').selectOption({ label: 'News (11)' });
  await page.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByText('11 sites added and being tested.')).toBeVisible();
  await expect(row(page, 'Reuters')).toContainText('Reachable');

  await page.reload();
  await expect(row(page, 'Intranet')).toContainText('Reachable');
  await expect(page.getByRole('region', { name: 'News' }).getByRole('row')).toHaveCount(12);
  await page.getByRole('button', { name: 'Remove Intranet' }).click();
  await page.getByRole('button', { name: 'Remove News' }).click();
  await page.getByRole('button', { name: 'Remove Google' }).click();
  await page.reload();
  await expect(row(page, 'YouTube')).toContainText('Reachable');
  await expect(page.getByRole('rowheader', { name: /^Intranet/ })).toHaveCount(0);
  await expect(page.getByRole('rowheader', { name: /^Reuters/ })).toHaveCount(0);
  await expect(page.getByRole('rowheader', { name: /^Google/ })).toHaveCount(0);
  await expect(page.getByText('there is room for 54 more')).toBeVisible();
});

test('the connectivity results round-trip through a shared report', async ({ page, thirdParty, watch }) => {
  answerEverySite(thirdParty);
  cut(thirdParty, 'chatgpt.com', watch);
  await page.goto('/connectivity');
  await page.getByLabel('Name').fill('Intranet');
  await page.getByLabel('Address', { exact: true }).fill('intranet.example.net');
  await page.getByRole('button', { name: 'Add site' }).click();
  await expect(row(page, 'Intranet')).toContainText('Reachable');
  await expect(page.getByRole('status').filter({ hasText: 'sites tested' })).toContainText('8 sites tested');
  await expect(page.getByText(/The report holds: Connectivity/)).toBeVisible();
  await page.getByRole('button', { name: 'Share report' }).click();
  const url = await page.getByLabel('Link to the report').inputValue();

  await page.goto(url);
  const section = page.getByRole('region', { name: 'Connectivity' });
  await expect(section.getByRole('row')).toHaveCount(9);
  await expect(row(page, 'Google')).toContainText('Reachable');
  await expect(row(page, 'Google')).toContainText(/\d+ ms/);
  await expect(row(page, 'ChatGPT')).toContainText('Unreachable');
  await expect(row(page, 'Intranet')).toContainText('added by the visitor');
  await screenshots(page, 'connectivity-report');
});

test('the first page loads none of the tools’ code', async ({ page, thirdParty }) => {
  answerEverySite(thirdParty);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  expect(scripts.filter((path) => /Connectivity|DnsLeak|ProbeStatus/.test(path))).toEqual([]);
  expect(thirdParty.seen()).toEqual([]);
  await page.getByRole('link', { name: 'Connectivity' }).click();
  await expect(row(page, 'Google')).toContainText('Reachable');
  expect(scripts.some((path) => /ConnectivityPage/.test(path))).toBe(true);
});
