import { expect, screenshots, tabTo, test } from './fixtures.js';

const MAXMIND_SENTENCE =
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com.';

test('the footer shows the repository’s stars from /api/repo-stars, linked to the repository', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const stars = footer.getByRole('link', { name: '9,120 stars on GitHub' });
  await expect(stars).toHaveAttribute('href', 'https://github.com/jason5ng32/MyIP');
  await expect(footer.getByRole('link', { name: 'Source code (MIT licence)' })).toHaveAttribute(
    'href',
    'https://github.com/jason5ng32/MyIP',
  );
});

test('when /api/repo-stars fails the footer shows no count and no error', async ({ page, watch }) => {
  watch.allow(/api\/repo-stars|status of 500/);
  await page.route('**/api/repo-stars', (route) =>
    route.fulfill({ status: 500, json: { error: 'Failed to fetch GitHub stars' } }),
  );
  const answered = page.waitForResponse('**/api/repo-stars');
  await page.goto('/');
  await answered;
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Source code (MIT licence)' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Privacy' })).toBeVisible();
  await expect(footer).not.toContainText('GitHub');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the privacy page is reached from the footer by keyboard and says what each tool sends where', async ({
  page,
}) => {
  await page.goto('/');
  await tabTo(page, page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }), 120);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy: what goes where');
  await expect(page).toHaveTitle(/^Privacy · /);
  const tools = page.getByRole('region', { name: 'Tests that run in your browser' });
  const flow = (tool: string) => tools.locator('.row', { has: page.getByRole('link', { name: tool, exact: true }) });
  await expect(flow('DNS leak')).toContainText('ip-api.com, Surfshark, IPLeak.net and Fastly');
  await expect(flow('WebRTC leak')).toContainText('STUN servers');
  await expect(flow('Latency')).toContainText('Globalping');
  await expect(flow('Browser')).toContainText('Nothing');
  await expect(page.getByRole('region', { name: 'What your browser keeps' })).toContainText('netdiag.checklist.done');
  // The demo loads MaxMind GeoLite2: its credit alone, in MaxMind's words.
  const credits = page.getByRole('region', { name: 'Data credits' });
  await expect(credits).toContainText('This site locates addresses with a local database');
  await expect(credits.getByRole('listitem')).toHaveText([MAXMIND_SENTENCE]);
  await expect(
    page.getByRole('region', { name: 'Source code and licence' }).getByRole('link', { name: /jason5ng32\/MyIP/ }),
  ).toHaveAttribute('href', 'https://github.com/jason5ng32/MyIP');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `privacy-${scheme}`);
  }
});

test('with no local database loaded, the privacy page names both databases’ credits', async ({ page }) => {
  await page.route('**/site-settings.json', async (route) => {
    const settings = await (await route.fetch()).json();
    await route.fulfill({ json: { ...settings, geoDatabase: null } });
  });
  await page.goto('/privacy');
  const credits = page.getByRole('region', { name: 'Data credits' });
  await expect(credits).toContainText('When the operator loads a local geolocation database');
  await expect(credits.getByRole('listitem')).toHaveText([MAXMIND_SENTENCE, 'IP Geolocation by DB-IP']);
});
