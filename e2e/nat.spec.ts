import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { start, stunList, test } from './webrtc-page.js';

// The NAT type test against real STUN servers: one coturn on two addresses of
// the run's namespace (three endpoints: two ports of one address, one of the
// other) behind an nftables NAT of each mapping behaviour (e2e/stun-server.ts).
// Chromium runs on this machine; the NAT sits in front of coturn, so the
// servers see the translated source as they would behind a home router. Each
// behaviour is run five times, each run five rounds from fresh ports, and must
// be named every time with all five rounds agreeing.

const status = (page: Page) => page.getByRole('status').first();
const card = (page: Page) => page.locator('section[aria-labelledby="nat-ipv4"]');
// Five rounds, each waiting for the browser's end of candidates (a few seconds at most on a busy machine).
const RUN_LIMIT_MS = 90_000;

const CASES = [
  {
    mapping: 'endpoint-independent',
    heading: 'IPv4: Endpoint-independent mapping',
    common: 'a cone NAT (full cone, restricted cone or port-restricted cone',
  },
  {
    mapping: 'address-and-port-dependent',
    heading: 'IPv4: Address-and-port-dependent mapping',
    common: 'a symmetric NAT.',
  },
] as const;

for (const { mapping, heading, common } of CASES) {
  test(`an ${mapping} NAT (nftables) is named so in 5 runs of 5 rounds`, async ({ page, stun }) => {
    test.setTimeout(6 * RUN_LIMIT_MS);
    const urls = await stun.pairBehindNat('193.0.0.1', mapping);
    await stunList(page, urls);
    for (let run = 1; run <= 5; run++) {
      await page.goto('/nat');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('NAT type');
      await start(page);
      await expect(status(page)).toHaveText('Finished: 5 rounds.', { timeout: RUN_LIMIT_MS });
      await expect(card(page).getByRole('heading'), `run ${run}`).toHaveText(heading);
      await expect(card(page), `run ${run}`).toContainText('Same answer in 5 of 5 rounds.');
      await expect(card(page)).toContainText(common);
    }
    // The demo's visitor proxy presents the browser to the site as 8.8.8.8; the NAT shows 193.0.0.1.
    const cgn = page.locator('section[aria-labelledby="nat-cgn"]');
    await expect(cgn).toContainText('Possibly behind a carrier-grade NAT');
    await expect(cgn).toContainText('A STUN server saw you as 193.0.0.1, this site as 8.8.8.8');
    await expect(page.getByText('Not tested: filtering')).toBeVisible();
  });
}

test('a NAT handing out an address of 100.64.0.0/10 makes a carrier-grade NAT likely, in the shared report too', async ({
  page,
  stun,
}) => {
  test.setTimeout(2 * RUN_LIMIT_MS);
  await stunList(page, await stun.pairBehindNat('100.64.7.7', 'endpoint-independent'));
  await page.goto('/nat');
  await start(page);
  await expect(status(page)).toHaveText('Finished: 5 rounds.', { timeout: RUN_LIMIT_MS });
  const cgn = page.locator('section[aria-labelledby="nat-cgn"]');
  await expect(cgn.getByText('Likely behind a carrier-grade NAT')).toBeVisible();
  await expect(cgn).toContainText('WebRTC showed 100.64.7.7, an address of 100.64.0.0/10');

  await page.getByRole('button', { name: 'Share report' }).click();
  const link = page.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  await page.goto(await link.inputValue());
  await expect(page.getByRole('heading', { level: 2, name: 'NAT type and carrier-grade NAT' })).toBeVisible();
  await expect(card(page).getByRole('heading')).toHaveText('IPv4: Endpoint-independent mapping');
  await expect(card(page)).toContainText('Same answer in 5 of 5 rounds.');
  const stored = page.locator('section[aria-labelledby="nat-cgn"]');
  await expect(stored).toContainText('Likely behind a carrier-grade NAT');
  await expect(stored).toContainText('An address in 100.64.0.0/10');
  // The report keeps the kinds of evidence, not the addresses.
  await expect(stored).not.toContainText('100.64.7.7');
});

test('one STUN server listed: the mapping is not determined, and the page names the setting', async ({
  page,
  stun,
}) => {
  await stunList(page, [await stun.behindNat('193.0.0.1')]);
  await page.goto('/nat');
  await expect(page.getByText('The operator adds them with the WEBRTC_STUN_SERVERS setting')).toBeVisible();
  await start(page);
  await expect(status(page)).toHaveText('Finished: 5 rounds.', { timeout: RUN_LIMIT_MS });
  await expect(card(page).getByRole('heading')).toHaveText('IPv4: Not determined: too few STUN servers');
});
