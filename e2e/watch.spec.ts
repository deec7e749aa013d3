import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';
import { until } from '../test/support/until.js';
import { Receiver } from '../test/watch/receiver.js';

// The address watch from its page, on real sockets: the service with the local
// report store, a webhook receiver on loopback (allowed here only, by
// WATCH_WEBHOOK_ALLOW_PRIVATE), and the cron line run as curl runs it.
let fakes: AllFakes;
let site: RunningSite;
let receiver: Receiver;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fakes = await startAllFakes();
  receiver = await Receiver.start();
  site = await startService({ ...fakes.env, REPORT_STORE: 'local', WATCH_WEBHOOK_ALLOW_PRIVATE: 'true' });
});

test.afterAll(async () => {
  await site?.stop();
  await receiver?.close();
  await fakes?.close();
});

/** The cron line, from `address` (X-Forwarded-For, as a proxy in front of the service sets it). */
async function curl(line: string, address: string): Promise<{ status: number; text: string }> {
  const url = line.replace(/^curl /, '');
  const response = await fetch(url, { headers: { 'user-agent': 'curl/8.5.0', 'x-forwarded-for': address } });
  return { status: response.status, text: await response.text() };
}

test('a watch created on the page, hit twice with one change, the webhook told, then deleted and refused', async ({
  page,
  watch,
}) => {
  // The key opened again after the deletion is refused: that 404 is the point.
  watch.allow(/HTTP 404: .*\/api\/watch\//);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 404/);
  await page.goto(`${site.url}/watch`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Address watch');
  await page.getByRole('button', { name: 'Start a watch' }).click();

  const created = page.getByRole('region', { name: "Your watch's key" });
  const line = (await created.locator('code').textContent())!.trim();
  expect(line).toMatch(new RegExp(`^curl ${site.url}/watch/[A-Za-z0-9_-]{43}$`));
  await expect(page.getByText('No address yet: run the line once.')).toBeVisible();

  await page.getByLabel('Send each change as JSON to this URL').fill(receiver.url());
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Send a test' }).click();
  await expect(page.getByText('The test was delivered (HTTP 204).')).toBeVisible();
  expect(receiver.notices.map((n) => n.event)).toEqual(['test']);

  expect(await curl(line, '8.8.8.8')).toEqual({ status: 200, text: '8.8.8.8 first seen\n' });
  expect(await curl(line, '1.1.1.1')).toEqual({ status: 200, text: '1.1.1.1 changed\n' });
  await until(async () => receiver.received.length === 2, 30_000, 'the change notice at the receiver');
  expect(receiver.notices[1]).toMatchObject({ event: 'address-changed', address: '1.1.1.1', previous: '8.8.8.8' });

  await page.getByRole('button', { name: 'Refresh' }).click();
  const history = page.getByRole('region', { name: 'History' });
  // Newest first.
  await expect(history.getByRole('rowheader')).toHaveText(['1.1.1.1', '8.8.8.8']);
  await expect(history.getByRole('row').filter({ hasText: '1.1.1.1' })).toContainText('AS13335');

  await page.getByRole('button', { name: 'Delete everything' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The watch and everything kept for it are deleted.' }),
  ).toBeVisible();
  expect(await curl(line, '1.1.1.1')).toEqual({ status: 404, text: 'Watch not found or expired\n' });
  const token = line.split('/').at(-1)!;
  await page.getByLabel('Or open a watch with its key').fill(token);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByText('No such watch: it was deleted, it expired, or the key is wrong.')).toBeVisible();
});
