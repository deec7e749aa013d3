import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, tabTo, test } from './fixtures.js';
import { json, type ThirdParty } from './third-party.js';

// The run-all page against the same peers as each test's own page: the
// third-party fake for the address detectors, the connectivity targets and the
// DNS-leak providers, the demo's STUN list for WebRTC and its own speed
// endpoints. The demo presents the browser as 8.8.8.8.

const V4 = '8.8.8.8';
const V6 = '2001:4860:4860::8888';
const LEAK = {
  ipapi: /\.edns\.ip-api\.com$/,
  surfshark: /\.ipv4\.surfsharkdns\.com$/,
  ipleak: /-1\.ipleak\.net$/,
  fastly: /\.u\.fastly-analytics\.com$/,
};
const DETECTORS = /^(api[46]\.ipify\.org|myip\.ipip\.net|ipv[46]\.myexternalip\.com)$/;

/**
 * Every third party answers: the detectors with the demo's addresses, every site with an icon, the DNS-leak
 * providers with 8.8.8.53. With `literals`, the detectors' IP-literal URLs are answered too, through the page's
 * routing; a test of the connectivity card leaves them out (they then fail, and the detectors ask their second
 * URL): once the page routes anything, Chromium's no-cors requests, the sites' icons, no longer reach the fake.
 */
async function everyoneAnswers(page: Page, thirdParty: ThirdParty, literals = true): Promise<void> {
  thirdParty.on(/./, (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/x-icon' });
    response.end(Buffer.from([0, 0, 1, 0]));
  });
  if (literals) {
    // IP-literal URLs are never resolved, so the resolver rules cannot send them to the fake.
    const trace = (ip: string) => (route: Parameters<Parameters<Page['route']>[1]>[0]) =>
      route.fulfill({ headers: { 'access-control-allow-origin': '*' }, body: `fl=1\nip=${ip}\nloc=US\n` });
    await page.route('https://1.0.0.1/cdn-cgi/trace', trace(V4));
    await page.route('https://[2606:4700:4700::1111]/cdn-cgi/trace', trace(V6));
  }
  for (const [host, ip] of [
    ['api4.ipify.org', V4],
    ['api6.ipify.org', V6],
    ['ipv4.myexternalip.com', V4],
    ['ipv6.myexternalip.com', V6],
  ] as const) {
    thirdParty.on(host, (_q, res) => json(res, { ip }));
  }
  thirdParty.on('myip.ipip.net', (_q, res) => json(res, { ret: 'ok', data: { ip: V4, location: ['美国'] } }));
  thirdParty.on(LEAK.ipapi, (_q, res) => json(res, { dns: { ip: '8.8.8.53', geo: 'x' } }));
  thirdParty.on(LEAK.surfshark, (req, res) =>
    json(res, { [req.headers.host ?? '']: { Country: 'x', IP: '8.8.8.53', ISP: 'y' } }),
  );
  thirdParty.on(LEAK.ipleak, (_q, res) => json(res, { ip: { '8.8.8.53': 3 } }));
  thirdParty.on(LEAK.fastly, (_q, res) => json(res, { dns_resolver_info: { ip: '8.8.8.53' } }));
}

const SITES = [
  'www.google.com',
  'www.youtube.com',
  'github.com',
  'speed.cloudflare.com',
  'claude.com',
  'chatgpt.com',
  'res.wx.qq.com',
];
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const isLeak = (host: string) => Object.values(LEAK).some((re) => re.test(host));

test('one page runs addresses, connectivity, WebRTC and DNS leak in order, each card filled; speed waits until asked', async ({
  page,
  thirdParty,
  watch,
}) => {
  test.slow();
  await everyoneAnswers(page, thirdParty, false);
  watch.allow(/request failed: https:\/\/(1\.0\.0\.1|\[2606:4700:4700::1111\])\/cdn-cgi\/trace/);
  watch.allow(/console error: Failed to load resource: net::ERR_/);
  watch.allow(/console error: Access to fetch at 'https:\/\/(1\.0\.0\.1|\[2606:4700:4700::1111\])\/cdn-cgi\/trace'/);
  await page.goto('/runall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Run all tests');

  await expect(card(page, 'Addresses').locator('.run-summary')).toHaveText(`Your addresses as seen: ${V4}, ${V6}`);
  await expect(card(page, 'Addresses').getByRole('row')).toHaveCount(5); // the heading row and 4 by default
  await expect(card(page, 'Connectivity').locator('.run-summary')).toHaveText(
    '7 sites tested: 7 reachable, 0 unreachable, 0 without an answer in time.',
  );
  // The demo's STUN servers stand for public ones this machine cannot reach (the WebRTC card against a real
  // coturn is the WebRTC page's own test, with the same run): the card still ends with its verdict.
  await expect(card(page, 'WebRTC leak').locator('.run-summary')).toHaveText(
    /^Finished: 0 of \d+ STUN servers reported an address\.$/,
    { timeout: 20_000 },
  );
  await expect(card(page, 'WebRTC leak').locator('.note').first()).toBeVisible();
  await expect(card(page, 'DNS leak').locator('.run-summary')).toHaveText('Test finished.');
  await expect(card(page, 'DNS leak')).toContainText('No sign of a leak');
  await expect(card(page, 'Speed').locator('.run-summary')).toHaveText(/runs when you press its “Run”/);

  // In order: every detector was asked before the first site, every site before the first DNS-leak name.
  const asked = thirdParty.seen().map((r) => r.host);
  const detectors = asked.flatMap((h, i) => (DETECTORS.test(h) ? [i] : []));
  const sites = asked.flatMap((h, i) => (SITES.includes(h) ? [i] : []));
  const firstLeak = asked.findIndex(isLeak);
  expect(sites).toHaveLength(7);
  expect(detectors.at(-1)!).toBeLessThan(sites[0]!);
  expect(sites.at(-1)!).toBeLessThan(firstLeak);

  // Speed, asked for: it runs alone (no other test asks anything again) and its card fills.
  await page.waitForLoadState('networkidle');
  const before = thirdParty.seen().length;
  await card(page, 'Speed').getByRole('button', { name: 'Run (Speed)' }).click();
  await expect(card(page, 'Speed').locator('.run-summary')).toHaveText(
    /^Finished: download [\d.,]+ Mb\/s, upload [\d.,]+ Mb\/s\.$/,
    { timeout: 90_000 },
  );
  expect(
    thirdParty
      .seen()
      .slice(before)
      .map((r) => r.host)
      // Chromium's own update check also lands on the fake: only the page's third parties count.
      .filter((host) => DETECTORS.test(host) || SITES.includes(host) || isLeak(host)),
  ).toEqual([]);
});

test('the preferences are kept: tests that run by themselves, simple view, address rows; one card runs again alone', async ({
  page,
  thirdParty,
}) => {
  await everyoneAnswers(page, thirdParty);
  await page.goto('/runall');
  await page.getByText('Preferences (kept in this browser)').click();
  for (const name of ['Connectivity', 'WebRTC leak', 'DNS leak']) {
    await page
      .getByRole('group', { name: /run by themselves/ })
      .getByLabel(name)
      .uncheck();
  }
  await page.getByLabel('Address rows shown').selectOption('2');
  await expect(card(page, 'Addresses').locator('.run-summary')).toHaveText(/^Your addresses as seen/);
  await expect(card(page, 'Addresses').getByRole('row')).toHaveCount(3);

  // The first visit ran every test: leave it, so none of its requests still in flight counts for the second.
  await page.goto('about:blank');
  thirdParty.reset();
  await everyoneAnswers(page, thirdParty);
  await page.goto('/runall');
  await expect(card(page, 'Addresses').locator('.run-summary')).toHaveText(/^Your addresses as seen/);
  await expect(card(page, 'Addresses').getByRole('row')).toHaveCount(3);
  for (const name of ['Connectivity', 'WebRTC leak', 'DNS leak']) {
    await expect(card(page, name).locator('.run-summary')).toHaveText(/^Not run yet/);
  }
  expect(thirdParty.seen().filter((r) => !DETECTORS.test(r.host))).toEqual([]);

  // One card again: only its own test asks anything.
  const before = thirdParty.seen().length;
  await card(page, 'DNS leak').getByRole('button', { name: 'Run (DNS leak)' }).click();
  await expect(card(page, 'DNS leak').locator('.run-summary')).toHaveText('Test finished.');
  const asked = thirdParty.seen().slice(before);
  expect(asked.length).toBeGreaterThanOrEqual(4);
  expect(asked.every((r) => isLeak(r.host))).toBe(true);
  await expect(card(page, 'DNS leak').getByRole('button', { name: 'Run again (DNS leak)' })).toBeVisible();

  // Simple view: the summaries stay, the tables go; kept too.
  await page.getByText('Preferences (kept in this browser)').click();
  await page.getByLabel('Simple view: each card shows its summary only').check();
  await expect(page.getByRole('table')).toHaveCount(0);
  await page.reload();
  await expect(card(page, 'Addresses').locator('.run-summary')).toHaveText(/^Your addresses as seen/);
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('a card saved as an image: a PNG download, the library fetched only on the click', async ({
  page,
  thirdParty,
}) => {
  await everyoneAnswers(page, thirdParty);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/runall');
  const addresses = card(page, 'Addresses');
  await expect(addresses.locator('.run-summary')).toHaveText(/^Your addresses as seen/);
  const loaded = scripts.length;
  const download = page.waitForEvent('download');
  await addresses.getByRole('button', { name: 'Save as image (Addresses)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^addresses-\d{4}-\d{2}-\d{2}\.png$/);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.length).toBeGreaterThan(1000);
  expect(scripts.length).toBeGreaterThan(loaded);
});

test('the share dialog: a section two pages filled shows both with page and time, neither replaced; preview, JSON, text, link', async ({
  page,
  thirdParty,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await everyoneAnswers(page, thirdParty);
  await page.goto('/dnsleak');
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible();
  // To the run-all page inside the site (the results live in the tab's memory), by the keyboard: g then a.
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await expect(page).toHaveURL(/\/runall$/);
  await expect(card(page, 'DNS leak').locator('.run-summary')).toHaveText('Test finished.');

  await page.keyboard.press('s');
  const dialog = page.getByRole('dialog', { name: 'Share report' });
  await expect(dialog).toBeVisible();
  const sources = dialog.getByRole('group', { name: 'Which result' });
  const fromLeakPage = sources.getByLabel(/^from the DNS leak page, /);
  const fromHere = sources.getByLabel(/^from the Run all tests page, /);
  await expect(fromHere).toBeChecked();
  await expect(fromLeakPage).not.toBeChecked();
  await fromLeakPage.check();

  // Only DNS leak: the other sections unticked.
  for (const name of ['IP address details', 'Connectivity', 'WebRTC leak test']) {
    const box = dialog.getByRole('checkbox', { name, exact: true });
    if (await box.count()) await box.uncheck();
  }
  const preview = dialog.getByLabel('Preview (plain text)');
  await expect(preview).toHaveValue(/^Here are my network test results from /);
  await expect(preview).toHaveValue(/## DNS leak test \(/);
  await expect(preview).toHaveValue(/- id: ipapi, name: ip-api\.com, ip: 8\.8\.8\.53, countryCode: US/);
  await expect(preview).not.toHaveValue(/## Connectivity/);

  await dialog.getByRole('button', { name: 'Copy as text for an assistant' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await preview.inputValue());

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download JSON' }).click();
  const file = await download;
  const body = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
    report: { v: number; sections: Record<string, { providers: unknown[] }> };
  };
  expect(body.report.v).toBe(1);
  expect(Object.keys(body.report.sections)).toEqual(['dnsleak']);
  expect(body.report.sections.dnsleak!.providers).toHaveLength(4);

  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  const address = await link.inputValue();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Back on another page, the inline form says whose result it would take.
  await page.keyboard.press('g');
  await page.keyboard.press('c');
  await expect(page).toHaveURL(/\/connectivity$/);
  await expect(page.getByText(/^DNS leak test: from the (DNS leak|Run all tests) page, /)).toBeVisible();

  await page.goto(address);
  await expect(page.getByRole('heading', { level: 2, name: 'DNS leak test' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Connectivity' })).toHaveCount(0);
});

test('keyboard: ? lists the shortcuts in a modal dialog that keeps the focus and closes on Escape; keys typed in a field stay there', async ({
  page,
  thirdParty,
}) => {
  await everyoneAnswers(page, thirdParty);
  await page.goto('/dnsleak');
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Run or refresh the page’s test');
  await expect(help).toContainText('Go to Connectivity');
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await help.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('g');
  await page.keyboard.press('c');
  await expect(page).toHaveURL(/\/dnsleak$/);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // r runs the page's test again.
  const before = thirdParty.seen().length;
  await page.keyboard.press('r');
  await expect
    .poll(
      () =>
        thirdParty
          .seen()
          .slice(before)
          .filter((r) => isLeak(r.host)).length,
    )
    .toBeGreaterThan(3);
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible();

  // t switches the theme; / goes to the lookup box, where g and t are text.
  const dark = () => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  await page.keyboard.press('t');
  expect(await dark()).toBe('dark');
  await page.keyboard.press('t');
  expect(await dark()).toBe('light');
  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/$/);
  const lookup = page.locator('#lookup-input');
  await expect(lookup).toBeFocused();
  await page.keyboard.type('gct?');
  await expect(lookup).toHaveValue('gct?');
  await expect(page).toHaveURL(/\/$/);
  expect(await dark()).toBe('light');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The share dialog also opens from the share form's button, in the Tab order; closed, the focus returns to it.
  await page.goto('/dnsleak');
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'More choices…' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Share report' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'More choices…' })).toBeFocused();
});
