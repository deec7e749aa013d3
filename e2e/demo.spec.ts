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
// third-party fake, which answers nothing here: the pages whose third
// parties no setting can move (the connectivity targets, the DNS-leak
// providers, the STUN servers) are opened, and their notes allowed.

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
const NOT_FAKED = ['/connectivity', '/dnsleak', '/webrtc'];
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
  for (const path of NOT_FAKED) await open(page, path);
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
