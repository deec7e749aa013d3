import { expect, test } from './fixtures.js';

// What a page concludes from an answer: the verdict in words must match the
// rows under it. Each case here was a wrong conclusion a visitor could read.

const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });

test('DNS: one TXT record set over plain DNS and DoH, quoted or not, reads as agreement and shows alike', async ({
  page,
}) => {
  // The demo's plain DNS answers example.com's TXT unquoted, its DoH fakes quote it as Cloudflare does.
  await page.goto('/dns?hostname=example.com&type=TXT');
  await expect(page.getByRole('status')).toHaveText('Every resolver that answered gave the same records.');
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(14);
  await expect(page.locator('tr.differs')).toHaveCount(0);
  for (const text of await page.locator('.answers li').allTextContents()) expect(text).not.toContain('"');
  await expect(rows.filter({ hasText: 'DoH' }).first().locator('.answers li')).toHaveText([
    'v=spf1 -all',
    '_k2n1y4vw3qtb4skdx9e7dxt97qrmmq9',
  ]);
});

test('DNS: when no resolver answers, the page says so instead of claiming agreement', async ({ page }) => {
  await page.route(/\/api\/dnsresolver\?/, async (route) => {
    const answer = await route.fetch();
    const body = (await answer.json()) as { results: Array<{ type: string; result: unknown; status: string }> };
    for (const row of body.results) {
      row.result = row.type === 'doh' ? ['N/A'] : 'N/A';
      row.status = 'failed';
    }
    await route.fulfill({ response: answer, json: body });
  });
  await page.goto('/dns?hostname=example.com&type=A');
  await expect(page.locator('tbody tr')).toHaveCount(14);
  await expect(page.getByRole('status')).toHaveText(
    'No resolver gave A records for example.com: the name may not exist or have no A records, or the resolvers could not be reached.',
  );
  await expect(page.getByText('Every resolver that answered gave the same records.')).toHaveCount(0);
});

test('DNS: a record type the page does not offer is said, not replaced by A', async ({ page }) => {
  let asked = 0;
  page.on('request', (request) => {
    if (request.url().includes('/api/dnsresolver')) asked++;
  });
  await page.goto('/dns?hostname=example.com&type=FOO');
  await expect(page.getByRole('alert')).toHaveText(
    '“FOO” is not a record type this page asks for. Choose one of A, AAAA, CNAME, MX, NS, TXT.',
  );
  await expect(page.locator('tbody tr')).toHaveCount(0);
  expect(asked).toBe(0);
  await page.getByLabel('Record type').selectOption('MX');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(/type=MX/);
  await expect(page.locator('tbody tr')).toHaveCount(14);
});

test('Censorship: a country with too few measurements is its own verdict, never "Reachable"', async ({ page }) => {
  await page.route(/\/api\/censorship-blocking\?/, (route) =>
    route.fulfill(
      json({
        domain: 'example.com',
        since: '2026-10-27',
        until: '2026-11-26',
        countries: [
          { country: 'IR', measurements: 3, ok: 0, anomaly: 3, confirmed: 0, failure: 0, methods: {}, tier: 'ok' },
          { country: 'DE', measurements: 40, ok: 40, anomaly: 0, confirmed: 0, failure: 0, methods: {}, tier: 'ok' },
        ],
      }),
    ),
  );
  await page.goto('/censorship?domain=example.com');
  const iran = page.locator('tbody tr').filter({ hasText: 'Iran' });
  await expect(iran.locator('.tier')).toHaveText('Too few measurements');
  await expect(iran).not.toContainText('Reachable');
  await expect(page.locator('tbody tr').filter({ hasText: 'Germany' }).locator('.tier')).toHaveText('Reachable');
  await expect(page.getByRole('status')).toContainText('0 of 2 countries show signs of blocking.');
});

test('AS page: the profile shows what the API sends, prefixes, neighbours and speed tests', async ({ page }) => {
  await page.goto('/asn/13335');
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.locator('.row').filter({ hasText: 'Announced prefixes' })).toContainText(
    /[\d,]+ IPv4 · [\d,]+ IPv6/,
  );
  await expect(profile.locator('.row').filter({ hasText: 'Neighbouring networks' })).toContainText(
    /\d+ upstreams? · \d+ downstreams? · \d+ peers?/,
  );
  await expect(profile.getByRole('heading', { name: 'Speed tests from this network (last 90 days)' })).toBeVisible();
  await expect(profile.locator('.row').filter({ hasText: 'Download' })).toContainText(/\d+(\.\d)? Mbps/);
  await expect(profile.locator('.row').filter({ hasText: 'Latency, idle' })).toContainText(/\d+(\.\d)? ms/);
  await expect(profile.locator('.row').filter({ hasText: 'Jitter, idle' })).toContainText(/ ms/);
  const history = page.getByRole('region', { name: 'Routing history of a prefix' });
  await expect(history).toContainText('Which networks announced an address block, and when.');
});
