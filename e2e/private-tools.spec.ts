import type { Page } from '@playwright/test';
import { shareAndOpen } from './store-report.js';
import { expect, screenshots, tabTo, test, type Watch } from './fixtures.js';
import type { ThirdParty } from './third-party.js';
import { DEMO_USER } from '../demo/oidc-provider.js';
import { demoIdToken, issuer, signInAtProvider, withoutProviderFonts } from './sign-in-steps.js';
import { DEMO_TOKENS } from '../test/support/fake-routes/private-tools.js';

// The three private tools against the demo's private API (test/support/fake-routes/private-tools.ts),
// which answers as the companion would for the caller's token. A signed-in visitor's browser sends its
// token on the private calls; here the test adds an ID token for one of the demo's accounts to the page's
// /api requests, as sign-in would, signed so that the service's sign-in check passes it.

async function signIn(page: Page, account: string): Promise<void> {
  const token = await demoIdToken(account);
  await page.route('**/api/**', (route) =>
    route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${token}` } }),
  );
}

/** The refusal the test provokes is an answer the page expects, not a fault. */
function allowRefusal(watch: Watch, status: 401 | 429): void {
  watch.allow(new RegExp(`HTTP ${status}: .*/api/(dnsleaktest|invisibility|persona)`));
  watch.allow(new RegExp(`console error: Failed to load resource: the server responded with a status of ${status}`));
}

function leakZone(thirdParty: ThirdParty): void {
  thirdParty.on(/\.leak\.ipcheck\.ing$/, (_request, response) => {
    response.writeHead(204, { 'access-control-allow-origin': '*' }).end();
  });
}

function detectionScript(thirdParty: ThirdParty): void {
  thirdParty.on('proxydetectjs.ipcheck.ing', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/javascript' }).end('');
  });
}

function cloudflareTrace(thirdParty: ThirdParty): void {
  thirdParty.on('cloudflare.com', (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
      .end('fl=1\nip=8.8.8.8\ncolo=EWR\nhttp=http/2\nloc=US\ntls=TLSv1.3\n');
  });
}

/** How many requests the page has sent to a path so far. */
function countRequests(page: Page, path: string): () => number {
  let count = 0;
  page.on('request', (request) => void (new URL(request.url()).href.includes(path) && count++));
  return () => count;
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

test.describe('in-depth DNS leak', () => {
  test('a run looks up four fresh names under the zone, lists each resolver and the DNSSEC summary, and shares them', async ({
    page,
    thirdParty,
  }) => {
    leakZone(thirdParty);
    await signIn(page, DEMO_TOKENS.user);
    await page.goto('/dnsdeep');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('In-depth DNS leak');
    const run = page.getByRole('button', { name: 'Run the test' });
    await tabTo(page, run);
    await page.keyboard.press('Enter');
    await expect(status(page, 'Test finished.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('3 resolvers asked, in 12 queries.')).toBeVisible();
    await expect(page.getByText(/^DNSSEC: some queries did not ask/)).toBeVisible();
    const rows = page.getByRole('region', { name: 'Resolvers' }).locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('172.253.226.34');
    await expect(rows.nth(0)).toContainText('91.64.12.0/24');
    await expect(rows.nth(0)).toContainText('Google LLC');
    await page.getByLabel('One row per resolver and subnet').uncheck();
    await expect(rows).toHaveCount(4);

    const names = thirdParty
      .seen()
      .map((r) => r.host)
      .filter((h) => h.endsWith('.leak.ipcheck.ing'));
    expect(names).toHaveLength(4);
    const token = names[0]!.split('.')[1];
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(names.every((n) => new RegExp(`^[0-9a-f]{8}\\.${token}\\.leak\\.ipcheck\\.ing$`).test(n))).toBe(true);

    await screenshots(page, 'dnsdeep');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'dnsdeep-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shareAndOpen(page);
    const section = page.getByRole('region', { name: 'In-depth DNS leak test' });
    await expect(section).toContainText('3 resolvers asked, in 12 queries.');
    await expect(section.locator('tbody tr')).toHaveCount(4);
    await expect(section.locator('tbody tr').first()).toContainText('172.253.226.34');
    await screenshots(page, 'dnsdeep-report');
  });

  test('pending then done: the page keeps polling while the companion has seen no resolver', async ({
    page,
    thirdParty,
  }) => {
    leakZone(thirdParty);
    await signIn(page, DEMO_TOKENS.slow);
    const polls = countRequests(page, '/api/dnsleaktest/session/');
    await page.goto('/dnsdeep');
    await page.getByRole('button', { name: 'Run the test' }).click();
    await expect(status(page, 'Waiting for the result: check 1 of at most 5…')).toBeVisible({ timeout: 20_000 });
    await expect(status(page, 'Test finished.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Resolvers' }).locator('tbody tr')).toHaveCount(3);
    expect(polls()).toBe(2);
  });

  test('signed out: "sign in required" has a Sign-in button that signs in at the provider and returns to the tool, which then runs', async ({
    page,
    thirdParty,
    watch,
  }) => {
    test.setTimeout(90_000);
    leakZone(thirdParty);
    allowRefusal(watch, 401);
    await withoutProviderFonts(page);
    await page.goto('/dnsdeep');
    await page.getByRole('button', { name: 'Run the test' }).click();
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('This test needs you to be signed in', { timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Resolvers' })).toHaveCount(0);
    await screenshots(page, 'dnsdeep-sign-in');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'dnsdeep-sign-in-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await tabTo(page, alert.getByRole('button', { name: 'Sign in' }));
    await page.keyboard.press('Enter');
    await signInAtProvider(page);
    await page.waitForURL('**/dnsdeep');
    await expect(page.getByRole('button', { name: `Signed in as ${DEMO_USER.name}` })).toBeVisible();

    // The same page, now run with the provider's token.
    const asked = page.waitForRequest((request) => request.url().includes('/api/dnsleaktest/session/'));
    await page.getByRole('button', { name: 'Run the test' }).click();
    expect((await asked).headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await expect(status(page, 'Test finished.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Resolvers' }).locator('tbody tr')).toHaveCount(3);
  });

  test('a refused sign-in offers to sign in again, at the provider', async ({ page, thirdParty, watch }) => {
    leakZone(thirdParty);
    allowRefusal(watch, 401);
    await withoutProviderFonts(page);
    await page.route('**/api/dnsleaktest/session/*', (route) =>
      route.fulfill({ status: 401, json: { error: 'Invalid token' } }),
    );
    await page.goto('/dnsdeep');
    await page.getByRole('button', { name: 'Run the test' }).click();
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('did not accept your sign-in', { timeout: 20_000 });
    await alert.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL(`${issuer()}/**`);
  });

  test('on a site without sign-in, "sign in required" names the settings that set it up', async ({
    page,
    thirdParty,
    watch,
  }) => {
    leakZone(thirdParty);
    allowRefusal(watch, 401);
    await page.route('**/site-settings.json', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), signIn: null } });
    });
    await page.goto('/dnsdeep');
    await page.getByRole('button', { name: 'Run the test' }).click();
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('this site has no sign-in set up', { timeout: 20_000 });
    await expect(alert.locator('code')).toHaveText(['OIDC_ISSUER', 'OIDC_CLIENT_ID']);
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    await screenshots(page, 'dnsdeep-no-sign-in');
  });

  test('quota used up: the page says when it renews, and does not retry', async ({ page, thirdParty, watch }) => {
    leakZone(thirdParty);
    allowRefusal(watch, 429);
    await signIn(page, DEMO_TOKENS.quotaUsed);
    const polls = countRequests(page, '/api/dnsleaktest/session/');
    await page.goto('/dnsdeep');
    await page.getByRole('button', { name: 'Run the test' }).click();
    await expect(page.getByRole('alert')).toContainText('monthly quota of private tests is used up', {
      timeout: 20_000,
    });
    expect(polls()).toBe(1);
    await screenshots(page, 'dnsdeep-quota');
  });
});

test.describe('proxy detection', () => {
  // The reference's schedule: the first poll 10 s after the script starts, then 10 s apart.
  test.setTimeout(90_000);

  async function start(page: Page): Promise<void> {
    await page.goto('/invisibility');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Proxy detection');
    const run = page.getByRole('button', { name: 'Run the test' });
    await expect(run).toBeDisabled();
    await page.getByLabel(/I agree that the detection script/).check();
    await run.click();
  }

  test('a run loads the detection script with the key and a fresh job id, shows the scores and every signal, and shares them', async ({
    page,
    thirdParty,
  }) => {
    detectionScript(thirdParty);
    await signIn(page, DEMO_TOKENS.user);
    await start(page);
    await expect(status(page, /measuring your connection/)).toBeVisible();
    await expect(status(page, 'Test finished.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Proxy score: 35 of 100 · VPN score: 80 of 100')).toBeVisible();
    const rows = page.getByRole('region', { name: 'Signals' }).locator('tbody tr');
    await expect(rows).toHaveCount(14);
    const zone = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Time zone' }) });
    await expect(zone).toContainText('Sign of a proxy or VPN');
    await expect(zone).toContainText('Browser: Europe/Berlin; address: Europe/Amsterdam');
    const script = thirdParty.seen().find((r) => r.host === 'proxydetectjs.ipcheck.ing');
    expect(script?.url).toMatch(/^\/\?pdKey=fake-detection-key&pdVal=\d{13}netdiagtst[0-9a-z]{5}$/);
    await expect(page.locator('script[src*="proxydetectjs"]')).toHaveCount(0);

    await screenshots(page, 'invisibility');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'invisibility-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shareAndOpen(page);
    const section = page.getByRole('region', { name: 'Proxy detection' });
    await expect(section).toContainText('185.107.56.231');
    await expect(section).toContainText('Proxy score: 35 of 100');
    await expect(section.locator('tbody tr')).toHaveCount(14);
    await screenshots(page, 'invisibility-report');
  });

  test('pending then done: the page polls again 10 s later', async ({ page, thirdParty }) => {
    detectionScript(thirdParty);
    await signIn(page, DEMO_TOKENS.slow);
    const polls = countRequests(page, '/api/invisibility?');
    await start(page);
    await expect(status(page, 'Waiting for the result: check 1 of at most 4…')).toBeVisible({ timeout: 30_000 });
    await expect(status(page, 'Test finished.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('region', { name: 'Signals' }).locator('tbody tr')).toHaveCount(14);
    expect(polls()).toBe(2);
  });

  test('signed out: the page says to sign in', async ({ page, thirdParty, watch }) => {
    detectionScript(thirdParty);
    allowRefusal(watch, 401);
    await start(page);
    await expect(page.getByRole('alert')).toContainText('This test needs you to be signed in', { timeout: 30_000 });
  });

  test('quota used up: the page says so', async ({ page, thirdParty, watch }) => {
    detectionScript(thirdParty);
    allowRefusal(watch, 429);
    await signIn(page, DEMO_TOKENS.quotaUsed);
    await start(page);
    await expect(page.getByRole('alert')).toContainText('monthly quota of private tests is used up', {
      timeout: 30_000,
    });
  });

  test('a blocked detection script: the page names the likely blocker and offers to retry', async ({
    page,
    thirdParty,
    watch,
  }) => {
    thirdParty.on('proxydetectjs.ipcheck.ing', (request) => request.socket.destroy());
    watch.allow(/request failed: https:\/\/proxydetectjs\.ipcheck\.ing\//);
    watch.allow(/console error: Failed to load resource: net::ERR_/);
    await signIn(page, DEMO_TOKENS.user);
    await start(page);
    await expect(page.getByRole('alert')).toContainText('could not be loaded');
    await expect(page.getByRole('alert').getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});

test.describe('persona check', () => {
  async function start(page: Page): Promise<void> {
    await page.goto('/persona');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Persona check');
    await page.getByLabel('Country you mean to appear from').selectOption('US');
    await expect(page.getByLabel('Its time zone')).toHaveValue(/^America\//);
    await page.getByLabel('Its time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Run the test' }).click();
  }

  test('a run sends the persona and what the browser shows, grades it by axis, and shares the grade', async ({
    page,
    thirdParty,
  }) => {
    cloudflareTrace(thirdParty);
    await signIn(page, DEMO_TOKENS.user);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/persona/evaluate') && r.method() === 'POST');
    await start(page);
    const body = (await sent).postDataJSON() as {
      persona: { country: string; timeZone: string; languages: string[] };
      observation: Record<string, { timeZone?: string; available?: boolean; colo?: string }>;
    };
    expect(body.persona).toEqual({ country: 'US', timeZone: 'America/New_York', languages: ['en-US'] });
    expect(body.observation.browser?.timeZone).toBeTruthy();
    expect(body.observation.trace).toMatchObject({ available: true, colo: 'EWR' });
    expect(body.observation.card).toBeUndefined();
    await expect(status(page, 'Check finished.')).toBeVisible();
    await expect(page.getByText('Grade B: mostly fits, with a few details off. · score 74 of 100')).toBeVisible();
    const leak = page.getByRole('region', { name: 'Is your real location exposed?' });
    await expect(leak.getByRole('row').filter({ hasText: 'WebRTC leak' })).toContainText('Leaks');
    await expect(page.getByRole('region', { name: "Do the browser's signals agree?" })).toContainText(
      'Time zone authenticity',
    );
    await screenshots(page, 'persona');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'persona-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shareAndOpen(page);
    const section = page.getByRole('region', { name: 'Persona check' });
    await expect(section).toContainText('Grade B');
    await expect(section).toContainText('United States');
    await expect(section.getByRole('row').filter({ hasText: 'WebRTC leak' })).toContainText('Leaks');
    await screenshots(page, 'persona-report');
  });

  test('pending then done: the page says the companion is grading until the answer arrives', async ({
    page,
    thirdParty,
  }) => {
    cloudflareTrace(thirdParty);
    await signIn(page, DEMO_TOKENS.slow);
    await start(page);
    await expect(status(page, 'The companion is grading your persona…')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Testing…' })).toBeVisible();
    await expect(status(page, 'Check finished.')).toBeVisible();
    await expect(page.getByText(/^Grade B/)).toBeVisible();
  });

  test('signed out: the page says to sign in', async ({ page, thirdParty, watch }) => {
    cloudflareTrace(thirdParty);
    allowRefusal(watch, 401);
    await start(page);
    await expect(page.getByRole('alert')).toContainText('This test needs you to be signed in');
  });

  test('quota used up: the page says so', async ({ page, thirdParty, watch }) => {
    cloudflareTrace(thirdParty);
    allowRefusal(watch, 429);
    await signIn(page, DEMO_TOKENS.quotaUsed);
    await start(page);
    await expect(page.getByRole('alert')).toContainText('monthly quota of private tests is used up');
  });
});
