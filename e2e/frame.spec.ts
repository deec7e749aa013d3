import { expect, screenshots, tabTo, test } from './fixtures.js';
import { issuer } from './sign-in-steps.js';
import { KEPT_IN_BROWSER } from '../web/site/src/lib/storage-keys.js';

const MAXMIND_SENTENCE =
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com.';

test('with no repository or source set, the footer links the code’s licence and shows no one’s stars', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(request.url()));
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'MIT licence' })).toHaveAttribute(
    'href',
    'https://spdx.org/licenses/MIT.html',
  );
  await expect(footer.getByRole('link', { name: 'Privacy' })).toBeVisible();
  await expect(footer).not.toContainText('GitHub');
  await expect(footer).not.toContainText('Source code');
  await page.waitForLoadState('networkidle');
  expect(asked.filter((url) => url.includes('/api/repo-stars'))).toEqual([]);
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
  await expect(flow('In-depth DNS leak')).toContainText('passing on your sign-in token');
  await expect(flow('Proxy detection')).toContainText('detection script');
  await expect(flow('Persona check')).toContainText('cloudflare.com');
  const region = (name: string) => page.getByRole('region', { name });
  await expect(region('Signing in')).toContainText(`On this site you sign in with ${new URL(issuer()).host},`);
  await expect(region('Error reports')).toContainText('The operator has set up error reports');
  await expect(region('Use without a connection')).toContainText('never keeps this server’s answers');
  // Every key, cache and database the site keeps, grouped by where (test/site/storage-keys.test.ts holds the
  // list to the code).
  const kept = region('What your browser keeps');
  await expect(kept.locator('code')).toHaveText(KEPT_IN_BROWSER.map((entry) => entry.name));
  await expect(kept.getByRole('list', { name: 'In session storage, gone when you close the tab:' })).toContainText(
    'oidc.user:',
  );
  // The demo loads MaxMind GeoLite2: its credit alone, in MaxMind's words.
  const credits = page.getByRole('region', { name: 'Data credits' });
  await expect(credits).toContainText('This site locates addresses with a local database');
  await expect(credits.getByRole('listitem')).toHaveText([MAXMIND_SENTENCE]);
  const source = page.getByRole('region', { name: 'Source code and licence' });
  await expect(source).toContainText('This site’s code is free software under the MIT licence.');
  await expect(source.getByRole('link', { name: 'The MIT licence’s text' })).toHaveAttribute(
    'href',
    'https://spdx.org/licenses/MIT.html',
  );
  await expect(source).toContainText('This site’s operator has not said where its source code is published.');
  await expect(source).not.toContainText('jason5ng32');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `privacy-${scheme}`);
  }
});

test('with no local database, sign-in or error tracker set up, the privacy page names both credits and says so', async ({
  page,
}) => {
  await page.route('**/site-settings.json', async (route) => {
    const settings = await (await route.fetch()).json();
    await route.fulfill({ json: { ...settings, geoDatabase: null, signIn: null, telemetry: null } });
  });
  await page.goto('/privacy');
  await expect(page.getByRole('region', { name: 'Signing in' })).toContainText('Sign-in is not set up on this site');
  await expect(page.getByRole('region', { name: 'Error reports' })).toContainText('no report leaves your browser');
  const credits = page.getByRole('region', { name: 'Data credits' });
  await expect(credits).toContainText('When the operator loads a local geolocation database');
  await expect(credits.getByRole('listitem')).toHaveText([MAXMIND_SENTENCE, 'IP Geolocation by DB-IP']);
});
