import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { DEMO_USER } from '../demo/oidc-provider.js';
import { bearerClaims, issuer, menuButton, signInAtProvider, withoutProviderFonts } from './sign-in-steps.js';
import { CHECKLIST_KEY, KEPT_IN_BROWSER, type StorageArea } from '../web/site/src/lib/storage-keys.js';
import { ALL_ITEMS, GROUPS } from '../web/site/src/features/checklist/items.js';

// Achievements a tool earns without a report section, through the site's event channel: the security
// checklist's three, against the real OpenID Connect provider and the demo's fake companion API.

test.beforeEach(async ({ page }) => withoutProviderFonts(page));

/** What the page keeps in each of the browser's stores, by name. */
async function keptNames(page: Page): Promise<Record<StorageArea, string[]>> {
  return page.evaluate(async () => ({
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    cacheStorage: await caches.keys(),
    indexedDB: (await indexedDB.databases()).map((db) => db.name ?? ''),
  }));
}

/** Whether the privacy page's list names `name` in `area` (a part in angle brackets stands for any text). */
function listed(area: StorageArea, name: string): boolean {
  return KEPT_IN_BROWSER.some((entry) => {
    if (entry.area !== area) return false;
    const pattern = entry.name
      .split(/<[^>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    return new RegExp(`^${pattern}$`).test(name);
  });
}

test('ticking the security checklist unlocks Surface check, Halfway there and Fully secured, ticks from before signing in included', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const unlocks: Request[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/updateuserachievement')) unlocks.push(request);
  });
  const sent = () => unlocks.map((request) => (request.postDataJSON() as { achievement: string }).achievement);

  await page.goto('/checklist');
  const progress = page.getByRole('status').filter({ hasText: 'steps done' });
  const total = ALL_ITEMS.length;
  const box = (id: string) => page.locator(`#item-${id}`);
  // Signed out: the tick is kept, nothing is sent.
  await box(ALL_ITEMS[0]!).check();
  await expect(progress).toHaveText(`1 of ${total} steps done`);
  // Ticking some 270 boxes one by one would only time the machine: all but the last are kept as an earlier
  // visit keeps them (the page reads them on opening), still signed out.
  await page.evaluate(([key, ids]) => localStorage.setItem(key, JSON.stringify(ids)), [
    CHECKLIST_KEY,
    ALL_ITEMS.slice(0, total - 1),
  ] as const);
  await page.reload();
  await expect(progress).toHaveText(`${total - 1} of ${total} steps done`);

  await page.getByRole('button', { name: 'Sign in' }).click();
  await signInAtProvider(page);
  await page.waitForURL('**/checklist');
  await expect(menuButton(page)).toBeVisible();
  // The ticks made before signing in earn the first two once the profile is known.
  // Unlocks wait for the profile and go out two seconds apart: generous waits on a busy machine.
  const notice = (title: string) => page.getByRole('status').filter({ hasText: `Achievement unlocked: ${title}` });
  const unlocked = { timeout: 30_000 };
  await expect(notice('Surface check')).toBeVisible(unlocked);
  await expect(notice('Halfway there')).toBeVisible(unlocked);
  expect(sent()).toEqual(['SurfaceCheck', 'HalfwayThere']);

  const last = ALL_ITEMS[total - 1]!;
  const group = GROUPS.find(({ items }) => items.some((item) => item.id === last))!.id;
  await page.locator(`[aria-controls="items-${group}"]`).click();
  await box(last).check();
  await expect(progress).toHaveText(`${total} of ${total} steps done`);
  await expect(notice('Fully secured')).toBeVisible(unlocked);
  await box(last).uncheck();
  await box(last).check();
  await expect(progress).toHaveText(`${total} of ${total} steps done`);
  // Each once, in order, a PUT with the visitor's ID token; unticking and ticking again sends nothing more.
  expect(sent()).toEqual(['SurfaceCheck', 'HalfwayThere', 'FullySecured']);
  for (const request of unlocks) {
    expect(request.method()).toBe('PUT');
    expect(bearerClaims(request)).toMatchObject({ iss: issuer(), sub: DEMO_USER.sub });
  }

  // The profile, reached inside the page, shows them unlocked.
  await menuButton(page).click();
  await page.getByRole('link', { name: 'Your profile' }).click();
  await page.waitForURL('**/profile');
  const card = (title: string) => page.getByRole('main').locator('.achievements li').filter({ hasText: title });
  for (const title of ['Surface check', 'Halfway there', 'Fully secured']) {
    await expect(card(title)).toContainText('Unlocked on');
  }
  await expect(card('Resource hog')).toContainText('Not offered on this site');

  // Whatever this visit left in the browser is on the privacy page's list.
  const kept = await keptNames(page);
  expect(kept.localStorage).toContain('netdiag.checklist.done');
  expect(kept.sessionStorage.some((name) => name.startsWith('oidc.user:'))).toBe(true);
  for (const [area, names] of Object.entries(kept) as Array<[StorageArea, string[]]>) {
    for (const name of names) expect(listed(area, name), `${area} ${name} is on the privacy page`).toBe(true);
  }
});
