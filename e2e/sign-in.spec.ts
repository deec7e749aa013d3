import { expect, screenshots, tabTo, test } from './fixtures.js';
import { DEMO_OIDC_CLIENT, DEMO_USER } from '../demo/oidc-provider.js';
import { bearerClaims, issuer, menuButton, signInAtProvider, withoutProviderFonts } from './sign-in-steps.js';

// Sign-in against a real OpenID Connect provider on loopback (oidc-provider,
// started by the global set-up, its issuer in the demo's settings): its own
// login and consent pages, the code exchanged with PKCE, the ID token carried
// to the private routes, which the demo's fake companion API answers.

test.beforeEach(async ({ page }) => withoutProviderFonts(page));

test('a visitor signs in at the provider, sees the profile, unlocks an achievement with a tool, and signs out', async ({
  page,
  thirdParty,
}) => {
  test.setTimeout(120_000);
  thirdParty.on(/./, (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/x-icon' });
    response.end(Buffer.from([0, 0, 1, 0]));
  });
  await page.goto('/connectivity');
  const signIn = page.getByRole('button', { name: 'Sign in' });
  await tabTo(page, signIn);
  const profileAsked = page.waitForRequest((r) => r.url().endsWith('/api/getuserinfo'));
  await page.keyboard.press('Enter');
  await signInAtProvider(page);

  // Back where the visitor left, signed in; the profile asked with the ID token.
  await page.waitForURL('**/connectivity');
  await expect(menuButton(page)).toBeVisible();
  const claims = bearerClaims(await profileAsked);
  expect(claims).toMatchObject({ iss: issuer(), aud: DEMO_OIDC_CLIENT, sub: DEMO_USER.sub, name: DEMO_USER.name });

  // /signed-in again (a reload, Back): nothing to finish, the visitor is signed in and sees the profile.
  await page.goto('/signed-in');
  await page.waitForURL('**/profile');
  await expect(menuButton(page)).toBeVisible();
  await page.goto('/connectivity');

  // A site of the visitor's own unlocks "Add, sweet add", recorded with the same token.
  const unlock = page.waitForRequest((r) => r.url().endsWith('/api/updateuserachievement'));
  await page.getByLabel('Name').fill('Intranet');
  await page.getByLabel('Address', { exact: true }).fill('intranet.example.net');
  await page.getByRole('button', { name: 'Add site' }).click();
  const put = await unlock;
  expect(put.method()).toBe('PUT');
  expect(put.postDataJSON()).toEqual({ achievement: 'AddSweetAdd' });
  expect(bearerClaims(put)).toMatchObject({ iss: issuer(), sub: DEMO_USER.sub });
  await expect(page.getByRole('status').filter({ hasText: 'Achievement unlocked: Add, sweet add' })).toBeVisible();

  // The menu by keyboard: open it, Tab to the profile, follow it.
  await tabTo(page, menuButton(page));
  await page.keyboard.press('Enter');
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Your profile' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForURL('**/profile');

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Your profile');
  await expect(main).toContainText(DEMO_USER.name);
  await expect(main).toContainText(DEMO_USER.email);
  await expect(main.locator('.row').filter({ hasText: 'Level' })).toContainText('Standard');
  await expect(main.locator('.row').filter({ hasText: 'Tests run while signed in' })).toContainText('137');
  await expect(main.getByRole('row').filter({ hasText: 'Proxy detection' })).toContainText(/3\s*20/);
  await expect(main).toContainText('6 of 27 unlocked');
  const card = (title: string) => main.locator('.achievements li').filter({ hasText: title });
  await expect(card('I am human')).toContainText('Unlocked on');
  await expect(card('Add, sweet add')).toContainText('Unlocked on');
  await expect(card('Hidden well')).toContainText('Not unlocked yet');
  await screenshots(page, 'profile');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'profile-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Sign-out: here, then at the provider, which sends the visitor home.
  await menuButton(page).click();
  await page.locator('#account-entries').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${issuer()}/**`);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL((url) => url.pathname === '/' && !url.href.startsWith(issuer()));
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('oidc.')))).toEqual([]);
  await page.goto('/profile');
  await expect(page.getByText('Sign in to see your profile')).toBeVisible();
});

test('the profile says in words when the companion API is not set up, refuses the token, or answers nonsense', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP (500|401): .*\/api\/getuserinfo/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of (500|401)/);
  let answer = { status: 500, json: { error: 'API key is missing' } as unknown };
  await page.route('**/api/getuserinfo', (route) => route.fulfill(answer));
  await page.goto('/profile');
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await signInAtProvider(page);
  await page.waitForURL('**/profile');
  const main = page.getByRole('main');
  await expect(main.locator('.note-off code')).toHaveText(['PRIVATE_API_KEY', 'PRIVATE_API_ENDPOINT']);

  answer = { status: 401, json: { error: 'Invalid token' } };
  await page.reload();
  await expect(main.getByRole('alert')).toHaveText(
    'The profile service did not accept your sign-in. Sign out, then sign in again.',
  );

  answer = { status: 200, json: null };
  await page.reload();
  await expect(main.locator('.row').filter({ hasText: 'Level' })).toContainText('Not known');
  await expect(main.getByRole('row').filter({ hasText: 'Proxy detection' })).toContainText(/Not known\s*Not known/);
  // An empty profile holds nothing, so signing in itself unlocks "I am human".
  await expect(main).toContainText('1 of 27 unlocked');
  await expect(main.locator('.achievements li').filter({ hasText: 'I am human' })).toContainText('Unlocked on');
});

test('a sign-in cancelled at the provider says so in words, and the visitor stays signed out', async ({ page }) => {
  await page.goto('/profile');
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${issuer()}/**`);
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await page.waitForURL('**/signed-in?**');
  await expect(page.getByRole('alert')).toContainText('The sign-in did not finish, so you are not signed in.');
  await expect(page.getByRole('alert')).toContainText(
    // The provider's words are isolated from ours (U+2068 … U+2069).
    /The sign-in provider said: \u2068End-User aborted interaction\u2069/,
  );
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('without the sign-in settings there is no sign-in button, and the profile names the settings', async ({
  page,
}) => {
  await page.route('**/site-settings.json', (route) =>
    route.fulfill({
      json: {
        addresses: { ipv4Origin: null, ipv6Origin: null },
        ruleTest: { origins: [] },
        speedTest: { cloudflare: false },
        signIn: null,
      },
    }),
  );
  const settings = page.waitForResponse('**/site-settings.json');
  await page.goto('/');
  await settings;
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await page.goto('/profile');
  await expect(page.getByText('Sign-in is not set up on this site')).toBeVisible();
  await expect(page.locator('.note-off code')).toHaveText(['OIDC_ISSUER', 'OIDC_CLIENT_ID']);
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await screenshots(page, 'profile-off');
});

test('a visitor who never signed in downloads no sign-in code, and the button fits a phone’s header', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  expect(scripts.filter((path) => /oidc|achievements|Profile/i.test(path))).toEqual([]);
  // The button fits the phone's header beside the name and the language, unclipped.
  await page.setViewportSize({ width: 390, height: 844 });
  const button = page.locator('.account-button');
  expect(await button.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await screenshots(page, 'home-sign-in');
});
