import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { DEMO_USER } from '../demo/oidc-provider.js';
import { bearerClaims, issuer, menuButton, signInAtProvider, withoutProviderFonts } from './sign-in-steps.js';
import { KEPT_IN_BROWSER, type StorageArea } from '../web/site/src/lib/storage-keys.js';

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
  const boxes = page.getByRole('checkbox');
  await expect(boxes).toHaveCount(42);
  // Signed out: the tick is kept, nothing is sent.
  await boxes.nth(0).check();
  await expect(progress).toHaveText('1 of 42 steps done');

  await page.getByRole('button', { name: 'Sign in' }).click();
  await signInAtProvider(page);
  await page.waitForURL('**/checklist');
  await expect(menuButton(page)).toBeVisible();
  // The tick made before signing in earns the first one once the profile is known.
  // Unlocks wait for the profile and go out two seconds apart: generous waits on a busy machine.
  const notice = (title: string) => page.getByRole('status').filter({ hasText: `Achievement unlocked: ${title}` });
  const unlocked = { timeout: 30_000 };
  await expect(notice('Surface check')).toBeVisible(unlocked);
  expect(sent()).toEqual(['SurfaceCheck']);

  // 22 of 42 is more than half; 21 is not.
  for (let i = 1; i < 21; i++) await boxes.nth(i).check();
  await expect(progress).toHaveText('21 of 42 steps done');
  await boxes.nth(21).check();
  await expect(notice('Halfway there')).toBeVisible(unlocked);
  for (let i = 22; i < 42; i++) await boxes.nth(i).check();
  await expect(progress).toHaveText('42 of 42 steps done');
  await expect(notice('Fully secured')).toBeVisible(unlocked);
  // Each once, in order, a PUT with the visitor's ID token; unticking and ticking again sends nothing more.
  await boxes.nth(41).uncheck();
  await boxes.nth(41).check();
  await expect(progress).toHaveText('42 of 42 steps done');
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
