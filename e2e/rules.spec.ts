import { expect, screenshots, test } from './fixtures.js';
import { echoesAnswer, HOSTS } from './rule-echoes.js';
import { json } from './third-party.js';

test('every destination exits through the same address: one exit, each row located', async ({ page, thirdParty }) => {
  await echoesAnswer(page, thirdParty, '8.8.8.8');
  await page.goto('/rules');
  await expect(page.getByRole('status')).toHaveText('8 destinations answered from 1 exit address.');
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'api4.ipify.org' })).toContainText('United States');
  await expect(rows.filter({ hasText: '1.0.0.1' })).toContainText('8.8.8.8');
  await expect(page.getByText('public address-echo services on eight different domains')).toBeVisible();
  // One after another, as the page says: never two destinations asked at once.
  const asked = thirdParty.seen().map((r) => r.host);
  expect(asked).toEqual(expect.arrayContaining([...HOSTS]));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `rules-${scheme}`);
  }
});

test('destinations routed through different rules show each exit, and the report keeps them', async ({
  page,
  thirdParty,
}) => {
  await echoesAnswer(page, thirdParty, '8.8.8.8', { 'myip.ipip.net': '1.1.1.1', '1.0.0.1': '9.9.9.9' });
  await page.goto('/rules');
  await expect(page.getByRole('status')).toHaveText(
    '8 destinations answered from 3 different exit addresses: 8.8.8.8, 9.9.9.9, 1.1.1.1.',
  );
  await page.getByRole('button', { name: 'Share report' }).click();
  await page.goto(await page.getByLabel('Link to the report').inputValue());
  const section = page.getByRole('region', { name: 'Proxy rule test' });
  await expect(section).toContainText('3 distinct exit addresses');
  await expect(section.getByRole('row').filter({ hasText: '9.9.9.9' })).toContainText('3');
  await expect(section.getByRole('row').filter({ hasText: '1.1.1.1' })).toContainText('5');
  await screenshots(page, 'rules-report');
});

test('the operator’s own hostnames are asked instead; one that never answers or refuses is said in words', async ({
  page,
  thirdParty,
  watch,
}) => {
  watch.allow(/rule-2\.netdiag\.test|rule-3\.netdiag\.test|status of 502/);
  await page.route('**/site-settings.json', (route) =>
    route.fulfill({
      json: {
        addresses: { ipv4Origin: null, ipv6Origin: null },
        ruleTest: {
          origins: ['https://rule-1.netdiag.test', 'https://rule-2.netdiag.test', 'https://rule-3.netdiag.test'],
        },
        speedTest: { cloudflare: false },
      },
    }),
  );
  thirdParty.on('rule-1.netdiag.test', (_req, res) => json(res, { ip: '8.8.8.8', family: 'IPv4' }));
  thirdParty.on('rule-2.netdiag.test', () => undefined);
  thirdParty.on('rule-3.netdiag.test', (_req, res) => json(res, { error: 'Bad Gateway' }, 502));
  await page.goto('/rules');
  await expect(page.getByText('hostnames of this server, set up by its operator')).toBeVisible();
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'rule-2.netdiag.test' })).toContainText('No answer within 5 seconds', {
    timeout: 15_000,
  });
  await expect(rows.filter({ hasText: 'rule-3.netdiag.test' })).toContainText('Not reachable');
  await expect(page.getByRole('status')).toHaveText('1 destination answered from 1 exit address.');
  expect(thirdParty.seen().find((r) => r.host === 'rule-1.netdiag.test')?.url).toBe('/api/client-ip');
});
