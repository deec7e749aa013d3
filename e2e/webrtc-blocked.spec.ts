import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from './fixtures.js';
import { CHROMIUM, CHROMIUM_ARGS } from './playwright.config.js';
import { rows, start, stunList, test } from './webrtc-page.js';

// What a VPN client's or an administrator's WebRTC policy does: no UDP but through a proxy. Chromium takes it
// from its profile's preferences (its command-line switch is gone), so this test runs a browser of its own.
test('with non-proxied UDP blocked by the browser policy, a working STUN server shows nothing: no address exposed, no leak', async ({
  playwright,
  baseURL,
  stun,
}) => {
  const profile = await mkdtemp(join(tmpdir(), 'e2e-webrtc-policy-'));
  await mkdir(join(profile, 'Default'));
  await writeFile(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ webrtc: { ip_handling_policy: 'disable_non_proxied_udp' } }),
  );
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const url = await stun.behindNat('193.0.0.1');
    await stunList(page, [url]);
    await page.goto('/webrtc');
    await start(page);
    const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
    await expect(verdict.getByRole('heading')).toHaveText('No address exposed', { timeout: 20_000 });
    await expect(page.getByRole('status').first()).toHaveText('Finished: 0 of 1 STUN servers reported an address.');
    await expect(rows(page).first()).not.toContainText('193.0.0.1');
    expect(problems, 'console errors').toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
