import { expect, screenshots, tabTo, test } from './fixtures.js';

// One test per page, each on the demo's fakes: the page shows the fakes'
// data, survives a reload of its deep link, is operable by keyboard and is
// photographed at phone and desktop width. The fixtures fail any test whose
// page logs a console error or has a request fail.

test('/ shows the visitor address and every geolocation source', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your IP address and where it appears to be');
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  await expect(
    page.getByText('You reached this site over IPv4. If you also have an IPv6 address, this page does not see it.'),
  ).toBeVisible();
  const cards = page.locator('.geo-card');
  await expect(cards).toHaveCount(7);
  // Every fake source places 8.8.8.8 in Google's network; their towns differ, as real sources' do.
  await expect(cards.filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);
  await expect(cards.filter({ hasText: 'IPinfo' })).toContainText('Mountain View');
  await expect(cards.filter({ hasText: 'ip-api' })).toContainText('Ashburn');
  // Country names come from the tables built with the site (web/site/country-names-plugin.ts).
  await expect(cards.filter({ hasText: 'IPinfo' }).locator('.country')).toHaveText('USUnited States');
  // The map loads lazily, once in view: scrolled there, so the test does not hang on where the cards put it.
  await page.locator('.map img').scrollIntoViewIfNeeded();
  await expect(page.locator('.map img')).toHaveJSProperty('complete', true);
  expect(await page.locator('.map img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await screenshots(page, 'home');

  await page.reload();
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  await expect(cards.filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);

  const box = page.getByLabel('Look up an IP address, domain, AS number, prefix or MAC address');
  await tabTo(page, box);
  await page.keyboard.type('AS13335');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asn\/13335$/);
});

test('/ip/<address> shows the address in every source and links its network', async ({ page }) => {
  await page.goto('/ip/8.8.8.8');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('IP address 8.8.8.8');
  await expect(page.locator('.geo-card').filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);
  await expect(page.locator('.geo-card').filter({ hasText: 'IP2Location' })).toContainText('California');
  await expect(page.getByRole('link', { name: 'Routing history of 8.8.8.0/24' })).toBeVisible();
  await screenshots(page, 'ip');
  await page.reload();
  await expect(page.locator('.geo-card').filter({ hasText: 'Google LLC' }).first()).toBeVisible();
  const asn = page.getByRole('link', { name: 'AS15169' }).first();
  await tabTo(page, asn);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asn\/15169$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Network AS15169');
});

test('/ip/<private address> says so at once and sends no request for it', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    // The footer's star count is asked on every page; nothing else of /api belongs to this one.
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/repo-stars') asked.push(url.pathname + url.search);
  });
  for (const address of ['192.168.1.1', '10.0.0.1', 'fe80::1']) {
    await page.goto(`/ip/${address}`);
    await expect(page.getByRole('status').filter({ hasText: 'This is a private or reserved address' })).toBeVisible();
    await expect(page.locator('.geo-card')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(asked, address).toEqual([]);
  }
  // The same count sees a public address's lookups: the page above asked nothing, not a count that cannot see.
  await page.goto('/ip/8.8.8.8');
  await expect(page.locator('.geo-card').filter({ hasText: 'Google LLC' }).first()).toBeVisible();
  expect(asked.filter((path) => path.includes('ip=8.8.8.8')).length).toBeGreaterThan(0);
});

test('/whois?q= shows each registry server’s record', async ({ page }) => {
  await page.goto('/whois?q=example.com');
  const records = page.locator('details.whois-record');
  const registry = records.filter({ hasText: 'Domain Name: EXAMPLE.COM' });
  await expect(registry.locator('summary')).toHaveText('WHOIS.VERISIGN-GRS.COM');
  await expect(registry.locator('pre')).toBeVisible();
  await screenshots(page, 'whois');
  await page.reload();
  await expect(page.locator('details.whois-record').filter({ hasText: 'Domain Name: EXAMPLE.COM' })).toBeVisible();

  const input = page.getByLabel('Domain or IP address');
  await tabTo(page, input);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('193.0.6.139');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/whois\?q=193\.0\.6\.139$/);
  const record = page.locator('details.whois-record');
  await expect(record.locator('pre')).toBeVisible();
  await tabTo(page, record.locator('summary'));
  await page.keyboard.press('Enter');
  await expect(record.locator('pre')).toBeHidden();
});

test('/dns?hostname=&type= shows every resolver side by side', async ({ page }) => {
  await page.goto('/dns?hostname=example.com&type=A');
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toContainText('93.184.215.14');
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(10);
  await expect(page.getByText('Every resolver that answered gave the same records.')).toBeVisible();
  await screenshots(page, 'dns');
  await page.reload();
  await expect(rows.first()).toContainText('93.184.215.14');

  await tabTo(page, page.getByLabel('Record type'));
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/type=AAAA/);
  await expect(rows.first()).toContainText('2606:2800:21f:cb07:6820:80da:af6b:8b2c');
});

test('/mac/<mac> shows the vendor and the address bits', async ({ page }) => {
  await page.goto('/mac/00:00:0C:00:00:00');
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Cisco Systems, Inc');
  await expect(page.getByText('Unicast')).toBeVisible();
  await screenshots(page, 'mac');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Cisco Systems, Inc' })).toBeVisible();

  const input = page.getByLabel('MAC address');
  await tabTo(page, input);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('00-00-0c-12-34-56');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/mac\/00:00:0C:12:34:56$/);
  await expect(page.getByRole('heading', { name: 'Cisco Systems, Inc' })).toBeVisible();
});

test('/asn/<n> shows the profile, traffic shares and the upstream graph with Tier-1 marked', async ({ page }) => {
  await page.goto('/asn/13335');
  await expect(page.getByText('CLOUDFLARENET')).toBeVisible();
  await expect(page.locator('.shares li')).toHaveCount(4);
  await expect(page.locator('.shares')).toContainText('IPv4 71.4%');
  const tier1 = page.locator('svg a.node-tier1');
  await expect.poll(() => tier1.count()).toBeGreaterThan(0);
  await expect(page.locator('svg a.node-origin')).toHaveAttribute('aria-label', /AS13335/);
  await screenshots(page, 'asn');
  await page.reload();
  await expect(page.getByText('CLOUDFLARENET')).toBeVisible();

  const first = tier1.first();
  const label = await first.getAttribute('aria-label');
  const target = /AS(\d+)/.exec(label ?? '')?.[1];
  await tabTo(page, first);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/asn/${target}$`));
});

test('/prefix/<cidr> shows the routing history', async ({ page }) => {
  await page.goto('/prefix/193.0.0.0/21');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Routing history of 193.0.0.0/21');
  const row = page.locator('tbody tr').first();
  await expect(row).toContainText('AS3333');
  await expect(row).toContainText('100%');
  await screenshots(page, 'prefix');
  await page.reload();
  await expect(page.locator('tbody tr').first()).toContainText('AS3333');
  await tabTo(page, page.getByRole('link', { name: 'AS3333' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asn\/3333$/);
});

test('/censorship?domain= shows per-country tiers and the probe countries', async ({ page }) => {
  await page.goto('/censorship?domain=example.com');
  const iran = page.locator('tbody tr').filter({ hasText: 'Iran' });
  await expect(iran).toContainText('Confirmed blocking');
  await expect(iran).toContainText('DNS tampering');
  await expect(page.getByRole('heading', { name: 'Where you can test from' })).toBeVisible();
  await screenshots(page, 'censorship');
  await page.reload();
  await expect(page.locator('tbody tr').filter({ hasText: 'Iran' })).toContainText('Confirmed blocking');

  const input = page.getByLabel('Domain', { exact: true });
  await tabTo(page, input);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('www.example.com');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/domain=www\.example\.com$/);
  await expect(page.locator('tbody tr').first()).toBeVisible();
});

test('/status shows every provider’s light and a provider’s detail on choosing it', async ({ page }) => {
  await page.goto('/status');
  const cards = page.locator('.status-card');
  await expect(cards).toHaveCount(16);
  const github = cards.filter({ hasText: 'GitHub' });
  await expect(github).toContainText('Minor issues');
  await tabTo(page, github);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/status\?id=github$/);
  await expect(github).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#status-detail')).toContainText('Git Operations');
  await screenshots(page, 'status');
  await page.reload();
  await expect(page.locator('#status-detail')).toContainText('Git Operations');
});

test('/outages shows the outage feed', async ({ page }) => {
  await page.goto('/outages');
  const events = page.locator('.event');
  await expect(events.first()).toBeVisible();
  await expect(page.getByText('Government-directed shutdown during exams.')).toBeVisible();
  await expect(page.locator('.event').filter({ hasText: 'Ongoing' }).first()).toBeVisible();
  await screenshots(page, 'outages');
  await page.reload();
  await expect(page.getByText('Government-directed shutdown during exams.')).toBeVisible();
  await tabTo(page, page.getByRole('link', { name: 'Service status' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/status$/);
  // After an in-site navigation the new page's content has the focus, for a screen reader to start there.
  await expect(page.locator('#main')).toBeFocused();
});

test('sharing a report gives a /r/<id> link that opens the report read-only', async ({ page }) => {
  await page.goto('/ip/8.8.8.8');
  await expect(page.locator('.geo-card').filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);
  // A radio group is one stop in the Tab order; arrows move the choice.
  await tabTo(page, page.getByLabel('1 day'));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByLabel('3 days')).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Share report' }));
  await page.keyboard.press('Enter');
  const link = page.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  // The keyboard's focus lands on the new link, selected, not on the page's body.
  await expect(link).toBeFocused();
  expect(await link.evaluate((input: HTMLInputElement) => input.selectionEnd! - input.selectionStart!)).toBe(
    (await link.inputValue()).length,
  );
  const url = await link.inputValue();
  const expires = await page.locator('.share-result').textContent();
  expect(expires).toMatch(/Expires /);

  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shared report');
  await expect(page.locator('.geo-card')).toHaveCount(7);
  await expect(page.locator('.geo-card').filter({ hasText: 'AS15169' })).toHaveCount(7);
  await expect(page.locator('.geo-card').filter({ hasText: 'IPinfo' })).toContainText('Mountain View');
  await expect(page.getByText(/This link expires/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share report' })).toHaveCount(0);
  await screenshots(page, 'report');
  await page.reload();
  await expect(page.locator('.geo-card').filter({ hasText: 'AS15169' })).toHaveCount(7);
});

test('/r/<unknown id> says the report expired or never existed', async ({ page, watch }) => {
  watch.allow(/HTTP 404: .*\/api\/report\//);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 404/);
  await page.goto('/r/AAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('alert')).toContainText('This report has expired or never existed.');
});

test('the language follows the choice, which the browser remembers', async ({ page }) => {
  await page.goto('/status');
  await tabTo(page, page.getByLabel('Language'));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('服务状态');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('服务状态');
  await expect(page).toHaveTitle(/服务状态/);
  await page.goto('/ip/8.8.8.8');
  await expect(page.locator('.geo-card').first().locator('.country')).toHaveText('US美国');
});

test('an unknown page says so and offers the lookup box', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await screenshots(page, 'not-found');
  await tabTo(page, page.getByLabel('Look up an IP address, domain, AS number, prefix or MAC address'));
  await page.keyboard.type('1.1.1.0/24');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/prefix\/1\.1\.1\.0\/24$/);
});
