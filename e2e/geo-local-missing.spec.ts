import { request as httpRequest } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';
import { DBIP_HOST } from '../test/support/fake-dbip.js';

// The local database's card while no database is loaded, on services of this file's own that start with none
// (an empty DATA_DIR): the card names the database the server is set to use and says what will happen, and when.

let fakes: AllFakes;
let dbip: RunningSite;
let noAccount: RunningSite;

/** Waits until the service's start-up step for the databases is over (its settings stop saying `loading`). */
async function settled(site: RunningSite): Promise<void> {
  const api = await httpRequest.newContext({ baseURL: site.url });
  try {
    await expect
      .poll(
        async () =>
          ((await (await api.get('/site-settings.json')).json()) as { geoLocal: { missing: string } }).geoLocal,
        { timeout: 60_000 },
      )
      .not.toMatchObject({ missing: 'loading' });
  } finally {
    await api.dispose();
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fakes = await startAllFakes();
  // DB-IP needs no account; its download site fails here, so the start's download does.
  fakes.http.on('*', DBIP_HOST, /^\//, { status: 503, body: 'down for maintenance' });
  [dbip, noAccount] = await Promise.all([
    startService({ ...fakes.env, GEODB_PROVIDER: 'dbip' }),
    startService({ ...fakes.env, GEODB_ACCOUNT_ID: '', GEODB_LICENSE_KEY: '' }),
  ]);
  await Promise.all([settled(dbip), settled(noAccount)]);
});

test.afterAll(async () => {
  await Promise.all([dbip?.stop(), noAccount?.stop()]);
  await fakes?.close();
});

test('GEODB_PROVIDER=dbip whose download failed: the card is DB-IP Lite’s and says the next try is at the next start', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP 503: .*\/api\/geo-local\?/);
  watch.allow(/status of 503/);
  await page.goto(`${dbip.url}/ip/8.8.8.8`);
  const card = page.locator('.geo-card').filter({ has: page.getByRole('heading', { name: 'DB-IP Lite' }) });
  await expect(card.getByRole('alert')).toContainText(
    'The DB-IP Lite database is not loaded: the server could not download or load it at start. It tries again only at its next start',
  );
  await expect(page.locator('.geo-card').filter({ hasText: 'MaxMind' })).toHaveCount(0);
  await expect(page.getByText('try again in a few minutes')).toHaveCount(0);
});

test('MaxMind without an account: the card says no download will happen, and what the operator can set', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP 503: .*\/api\/geo-local\?/);
  watch.allow(/status of 503/);
  await page.goto(`${noAccount.url}/ip/8.8.8.8`);
  const card = page.locator('.geo-card').filter({ has: page.getByRole('heading', { name: 'MaxMind GeoLite2' }) });
  await expect(card.getByRole('alert')).toContainText(
    'The MaxMind GeoLite2 database is not loaded, and no download will happen: the server has no MaxMind account',
  );
  await expect(card.getByRole('alert')).toContainText('GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY');
});
