import { expect, screenshots, tabTo } from './fixtures.js';
import { rows, start, stunList, test } from './webrtc-page.js';

// The WebRTC leak test against real STUN servers: coturn behind a NAT of its
// own (e2e/stun-server.ts), which presents this machine as a public address the
// demo's geolocation fixtures know. The demo's visitor proxy presents the
// browser to the site as 8.8.8.8, so a NAT showing 193.0.0.1 is a leak and one
// showing 8.8.8.8 is not.

test('a STUN server behind a NAT sees another address than the site: located, a leak, and shared in a report', async ({
  page,
  stun,
}) => {
  const url = await stun.behindNat('193.0.0.1');
  await stunList(page, [url]);
  await page.goto('/webrtc');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('WebRTC leak');
  await expect(rows(page)).toHaveText([new RegExp(`${url}\\s*Not asked yet`)]);
  await start(page);

  await expect(page.getByRole('status').first()).toHaveText('Finished: 1 of 1 STUN servers reported an address.');
  const row = rows(page).first();
  await expect(row).toContainText('193.0.0.1');
  await expect(row).toContainText('not the address websites see');
  await expect(row).toContainText('Behind a NAT: port-restricted cone or symmetric');
  await expect(row).toContainText('Netherlands');
  await expect(row).toContainText('RIPE NCC');
  const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
  await expect(verdict.getByRole('heading')).toHaveText('Leak');
  await expect(verdict).toContainText(
    'WebRTC reveals an address other than the one websites see: if you use a VPN or proxy, it leaks your real address.',
  );
  await expect(verdict).toContainText('This site sees you as 8.8.8.8. WebRTC also shows 193.0.0.1.');
  // Chromium hides the machine's own addresses behind mDNS names: exposed, but nothing of them revealed.
  const local = page.locator('section[aria-labelledby="webrtc-local"] li');
  await expect(local.first()).toContainText(/[0-9a-f-]+\.local/);
  await expect(local.first()).toContainText('hidden');
  await screenshots(page, 'webrtc-leak');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'webrtc-leak-dark');

  await tabTo(page, page.getByRole('button', { name: 'Share report' }));
  await expect(page.getByText('WebRTC leak test', { exact: false }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  const link = page.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  await page.goto(await link.inputValue());
  await expect(page.getByRole('heading', { level: 2, name: 'WebRTC leak test' })).toBeVisible();
  const stored = page.locator('section[aria-labelledby="webrtc-heading"] tbody tr');
  await expect(stored).toHaveCount(1);
  await expect(stored.first()).toContainText(url);
  await expect(stored.first()).toContainText('193.0.0.1');
  await expect(stored.first()).toContainText('Behind a NAT');
  await expect(stored.first()).toContainText('Netherlands');
  await expect(stored.first()).toContainText('RIPE NCC');
  await screenshots(page, 'webrtc-report-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshots(page, 'webrtc-report');
});

test('the STUN server sees the address the site sees: no leak', async ({ page, stun }) => {
  const url = await stun.behindNat('8.8.8.8');
  await stunList(page, [url]);
  await page.goto('/webrtc');
  await start(page);
  const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
  await expect(verdict.getByRole('heading')).toHaveText('No leak');
  await expect(verdict).toContainText('No leak: WebRTC shows only the address websites see.');
  await expect(verdict).toContainText('This site sees you as 8.8.8.8.');
  const row = rows(page).first();
  await expect(row).toContainText('8.8.8.8');
  await expect(row).toContainText('the address websites see');
  await expect(row).not.toContainText('not the address websites see');
  await expect(row).toContainText('United States');
  await screenshots(page, 'webrtc-no-leak');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'webrtc-no-leak-dark');
});

test('a STUN server that never answers is a timeout after 5 s; the one that answers still counts', async ({
  page,
  stun,
}) => {
  const [quiet, answering] = [await stun.silent(), await stun.behindNat('8.8.8.8')];
  await stunList(page, [quiet, answering]);
  await page.goto('/webrtc');
  await start(page);
  await expect(page.getByRole('status').first()).toHaveText('Finished: 1 of 2 STUN servers reported an address.', {
    timeout: 20_000,
  });
  await expect(rows(page).nth(0)).toContainText('No answer within 5 seconds');
  await expect(rows(page).nth(1)).toContainText('8.8.8.8');
  await expect(page.locator('section[aria-labelledby="webrtc-verdict"]').getByRole('heading')).toHaveText('No leak');
});

test('no STUN server answering exposes no address, and says so', async ({ page, stun }) => {
  await stunList(page, [await stun.silent()]);
  await page.goto('/webrtc');
  await start(page);
  const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
  await expect(verdict.getByRole('heading')).toHaveText('No address exposed', { timeout: 20_000 });
  await expect(verdict).toContainText('No STUN server answered, so WebRTC revealed no public address.');
  await expect(rows(page).first()).toContainText('No answer within 5 seconds');
});

test('a STUN server that sees only a private address answered: the summary and the verdict agree', async ({
  page,
  stun,
}) => {
  const url = await stun.behindNat('10.0.0.5');
  await stunList(page, [url]);
  await page.goto('/webrtc');
  await start(page);
  await expect(page.getByRole('status').first()).toHaveText('Finished: 1 of 1 STUN servers reported an address.');
  await expect(rows(page).first()).toContainText('10.0.0.5');
  const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
  await expect(verdict.getByRole('heading')).toHaveText('No public address exposed');
  await expect(verdict).toContainText('1 of 1 STUN servers answered, but it saw only a private or reserved address');
  await expect(verdict).not.toContainText('No STUN server answered');
});

test('WebRTC switched off in the browser is "unavailable", good for privacy', async ({ page }) => {
  await page.addInitScript(() => {
    // What a privacy extension or a browser policy does: no RTCPeerConnection at all.
    delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection;
    delete (window as { webkitRTCPeerConnection?: unknown }).webkitRTCPeerConnection;
  });
  await page.goto('/webrtc');
  await start(page);
  const verdict = page.locator('section[aria-labelledby="webrtc-verdict"]');
  await expect(verdict.getByRole('heading')).toHaveText('WebRTC unavailable');
  await expect(verdict).toContainText('so it cannot reveal your addresses. That is good for privacy.');
  await expect(rows(page)).toHaveCount(4);
  for (const row of await rows(page).all()) await expect(row).toContainText('WebRTC unavailable');
  await expect(rows(page).first()).toContainText('stun:stun.l.google.com:19302');
  await screenshots(page, 'webrtc-unavailable');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'webrtc-unavailable-dark');
  // The tool's own texts follow the language, the verdict included.
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('WebRTC 泄露');
  await expect(verdict.getByRole('heading')).toHaveText('WebRTC 不可用');
  await expect(rows(page).first()).toContainText('WebRTC 不可用');
  await expect(page.getByRole('columnheader', { name: '看到的地址' })).toHaveCount(1);
  await screenshots(page, 'webrtc-unavailable-zh-dark');
});
