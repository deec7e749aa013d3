import type { Page } from '@playwright/test';
import { expect, tabTo, test, type Watch } from './fixtures.js';
import { startDemo, type RunningSite } from './site-server.js';
import { DEMO_USER } from '../demo/oidc-provider.js';
import { withoutProviderFonts } from './sign-in-steps.js';

// `npm run demo` as a newcomer runs it, with its own stand-ins for the third
// parties the pages call from the browser (demo/demo.ts): every page opens
// without an "unreachable" or "switched off" note where the demo has a fake,
// the probe network and the proxy rule test show results, and the demo
// account signs in and runs the three signed-in tools. The browser's other names still go to this worker's
// third-party fake, which answers nothing here; the connectivity sites, the
// DNS leak providers and the STUN server are the demo's own stand-ins.

const TOOLS = ['addresses', 'browser', 'checklist', 'dnsdeep', 'invisibility', 'persona', 'speed', 'rules'];
const FAKED = [
  '/',
  '/ip/8.8.8.8',
  '/whois',
  '/dns',
  '/mac',
  '/asn/15169',
  '/prefix/8.8.8.0/24',
  '/censorship',
  '/status',
  '/outages',
  '/history',
  '/latency',
  '/traceroute',
  ...TOOLS.map((slug) => `/${slug}`),
  '/reference',
  '/privacy',
  '/profile',
];
// The notes a page shows when a third party does not answer: its own words, the probe network's, the rule test's.
const NOTE = /unreachable|switched off|could not be reached|could not start|No answer within/i;

let demo: RunningSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startDemo();
});
test.afterAll(async () => demo?.stop());
test.beforeEach(async ({ page }) => withoutProviderFonts(page));

/** The third parties without a stand-in answer nothing; their failures are expected here. */
function allowThirdParties(watch: Watch): void {
  watch.allow(/^HTTP \d+: https?:\/\/(?!localhost[:/]|[\w-]+\.localhost[:/])/);
  watch.allow(/^request failed: https?:\/\/(?!localhost[:/]|[\w-]+\.localhost[:/])/);
  watch.allow(/^console error: Failed to load resource/);
}

/** Opens `path` and waits until its requests have settled (or a generous while, for a page that polls). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${demo.url}${path}`);
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
}

test('every page of the demo opens without an "unreachable" or "switched off" note where the demo has a fake', async ({
  page,
  watch,
}) => {
  test.setTimeout(300_000);
  allowThirdParties(watch);
  for (const path of FAKED) {
    await open(page, path);
    await expect(page.locator('main'), path).toBeVisible();
    expect(await page.locator('main').innerText(), path).not.toMatch(NOTE);
  }
});

test("the connectivity test, the DNS leak test and the WebRTC test run on the demo's stand-ins and show results", async ({
  page,
  watch,
}) => {
  test.setTimeout(120_000);
  allowThirdParties(watch);
  // No sign-in here, so no provider's fonts to hold back; and a routed page fails the connectivity test's
  // no-cors probes in Chromium, which a visitor's browser never does.
  await page.unrouteAll();
  // Each page runs its test (the WebRTC one on a click), and then shows no note of a third party not answering.
  await open(page, '/connectivity');
  const tested = '7 sites tested: 7 reachable, 0 unreachable, 0 without an answer in time.';
  await expect(page.getByRole('status').filter({ hasText: tested })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('google.sites.localhost')).toBeVisible();
  // Its intro and summary name the word "unreachable" whatever happens: the sites' own rows are the notes here.
  await expect(page.getByRole('cell', { name: /^Reachable/ })).toHaveCount(7);

  await open(page, '/dnsleak');
  await expect(page.getByRole('status').filter({ hasText: 'Test finished.' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.verdict')).toContainText('No sign of a leak');
  await expect(page.getByRole('row').filter({ hasText: 'Fastly' })).toContainText('8.8.8.53');
  expect(await page.locator('main').innerText()).not.toMatch(NOTE);

  await open(page, '/webrtc');
  await page.getByRole('button', { name: 'Start the test' }).click();
  await expect(page.getByText('Finished: 1 of 1 STUN servers reported an address.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('row').filter({ hasText: 'stun:' })).toContainText('8.8.8.8');
  expect(await page.locator('main').innerText()).not.toMatch(NOTE);
});

test("the probe network's stand-in measures from every chosen country: latency, traceroute, the live censorship test", async ({
  page,
  watch,
}) => {
  test.setTimeout(180_000);
  allowThirdParties(watch);
  for (const path of ['/latency', '/traceroute']) {
    await open(page, path);
    await expect(page.getByText('7 countries chosen.')).toBeVisible({ timeout: 30_000 });
    const box = page.getByLabel('Target: an IP address or a domain');
    await tabTo(page, box);
    await page.keyboard.type('example.com');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Done: 7 of 7 probes answered.' }), path).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText('Frankfurt').first(), path).toBeVisible();
    expect(await page.locator('main').innerText(), path).not.toMatch(NOTE);
  }
  await open(page, '/censorship?domain=example.com');
  const live = page.getByRole('region', { name: 'Test it live' });
  await live.getByRole('button', { name: 'Test example.com live' }).click();
  await expect(live.locator('tbody tr').first()).toContainText('Reached', { timeout: 30_000 });
});

test('the proxy rule test asks the demo under its two one-family hostnames, and each answers', async ({
  page,
  watch,
}) => {
  allowThirdParties(watch);
  await open(page, '/rules');
  await expect(page.getByText('hostnames of this server, set up by its operator')).toBeVisible();
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'ipv4-only.localhost' })).toContainText('8.8.8.8', { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'ipv6-only.localhost' })).toContainText('2001:4860:4860::8888');
});

test("the demo account signs in at the demo's OpenID provider, and the three signed-in tools then run", async ({
  page,
  watch,
}) => {
  test.setTimeout(180_000);
  allowThirdParties(watch);
  // The in-depth DNS leak test's lookups go to names on loopback, where no web server answers: as intended.
  watch.allow(/^request failed: https:\/\/[\w.-]+\.leak\.localhost\//);
  await open(page, '/profile');
  await page.getByRole('button', { name: 'Sign in' }).first().click();
  await page.waitForURL((url) => !url.href.startsWith(demo.url));
  await page.locator('input[name="login"]').fill(DEMO_USER.sub);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.href.startsWith(demo.url));
  await expect(page.getByRole('button', { name: `Signed in as ${DEMO_USER.name}` })).toBeVisible();

  const finished = (text: string) => page.getByRole('status').filter({ hasText: text });
  await page.goto(`${demo.url}/dnsdeep`);
  await page.getByRole('button', { name: 'Run the test' }).click();
  await expect(finished('Test finished.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('3 resolvers asked, in 12 queries.')).toBeVisible();

  await page.goto(`${demo.url}/invisibility`);
  await page.getByLabel(/I agree that the detection script/).check();
  await page.getByRole('button', { name: 'Run the test' }).click();
  await expect(finished('Test finished.')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('Proxy score: 35 of 100 · VPN score: 80 of 100')).toBeVisible();

  await page.goto(`${demo.url}/persona`);
  await page.getByLabel('Country you mean to appear from').selectOption('US');
  await page.getByLabel('Its time zone').selectOption('America/New_York');
  await page.getByRole('button', { name: 'Run the test' }).click();
  await expect(finished('Check finished.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^Grade B/).first()).toBeVisible();
});
