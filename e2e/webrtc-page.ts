import type { Page } from '@playwright/test';
import { tabTo, test as base } from './fixtures.js';
import { startSilentStun, startStunBehindNat, startStunPairBehindNat, type Mapping } from './stun-server.js';

// What the WebRTC specs share: their STUN servers and the page's controls.

export interface StunServers {
  /** A coturn behind a NAT presenting this machine as `mappedAs`; its `stun:` URL. */
  behindNat(mappedAs: string): Promise<string>;
  /** A UDP port that never answers; its `stun:` URL. */
  silent(): Promise<string>;
  /** One coturn on two addresses behind a NAT with this mapping (e2e/stun-server.ts); three `stun:` URLs. */
  pairBehindNat(mappedAs: string, mapping: Mapping): Promise<string[]>;
}

/** The fixtures' test, with `stun`: the test's STUN servers, closed when it ends. */
export const test = base.extend<{ stun: StunServers }>({
  // Playwright reads which fixtures a fixture needs from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  stun: async ({}, use) => {
    const started: { close(): Promise<void> }[] = [];
    const keep = <T extends { close(): Promise<void> }>(server: T): T => {
      started.push(server);
      return server;
    };
    await use({
      behindNat: async (mappedAs) => keep(await startStunBehindNat(mappedAs)).url,
      silent: async () => keep(await startSilentStun()).url,
      pairBehindNat: async (mappedAs, mapping) => keep(await startStunPairBehindNat(mappedAs, mapping)).urls,
    });
    await Promise.all(started.map((server) => server.close()));
  },
});

/**
 * The STUN list this test's servers make: the service's own settings document,
 * its `webrtc.stunServers` swapped, as WEBRTC_STUN_SERVERS would set it (the
 * servers start per test, after the demo).
 */
export async function stunList(page: Page, urls: string[]): Promise<void> {
  await page.route('**/site-settings.json', async (route) => {
    const response = await route.fetch();
    const settings = (await response.json()) as { webrtc: { stunServers: string[] } };
    await route.fulfill({ response, json: { ...settings, webrtc: { stunServers: urls } } });
  });
}

export async function start(page: Page): Promise<void> {
  await tabTo(page, page.getByRole('button', { name: 'Start the test' }));
  await page.keyboard.press('Enter');
}

export const rows = (page: Page) => page.locator('section[aria-labelledby="webrtc-servers"] tbody tr');
