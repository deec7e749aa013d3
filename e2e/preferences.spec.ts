import type { Page } from '@playwright/test';
import { expect, screenshots, tabTo, test } from './fixtures.js';
import { json, type ThirdParty } from './third-party.js';

// The visitor's display choices (theme, hidden addresses), the address history, the cards' consensus and the copy
// buttons, on the demo's fakes: every fake source places 8.8.8.8 in the United States.

const LIGHT_BG = 'rgb(247, 248, 250)';
const DARK_BG = 'rgb(20, 23, 28)';
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
// The DNS leak page's four providers, each naming a resolver in the visitor's network (as in dnsleak.spec.ts).
function resolversAnswer(thirdParty: ThirdParty): void {
  thirdParty.on(/\.edns\.ip-api\.com$/, (_req, res) => json(res, { dns: { ip: '8.8.8.53', geo: 'x' } }));
  thirdParty.on(/\.ipv4\.surfsharkdns\.com$/, (req, res) =>
    json(res, { [req.headers.host ?? '']: { Country: 'x', IP: '8.8.8.53', ISP: 'y' } }),
  );
  thirdParty.on(/-1\.ipleak\.net$/, (_req, res) => json(res, { ip: { '8.8.8.54': 3 } }));
  thirdParty.on(/\.u\.fastly-analytics\.com$/, (_req, res) => json(res, { dns_resolver_info: { ip: '8.8.8.55' } }));
}
// The page's text but the lookup box's fixed examples to try (8.8.8.8 among them), which are no one's address.
const mainText = (page: Page) =>
  page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('.examples').forEach((examples) => examples.remove());
    return copy.textContent ?? '';
  });
const cardsLoaded = (page: Page) =>
  expect(page.locator('.geo-card').filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);

test('the theme: dark and light pin the colours whatever the system says, auto follows it live, and a reload keeps the choice', async ({
  page,
}) => {
  await page.goto('/');
  const theme = page.getByLabel('Theme');
  await expect(theme).toHaveValue('auto');
  expect(await background(page)).toBe(LIGHT_BG);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe(DARK_BG);

  await theme.selectOption({ label: 'Light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await page.reload();
  await expect(page.getByLabel('Theme')).toHaveValue('light');
  expect(await background(page)).toBe(LIGHT_BG);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByLabel('Theme').selectOption({ label: 'Dark' });
  await expect.poll(() => background(page)).toBe(DARK_BG);
  await page.reload();
  // Applied before the page renders: the first frame's <html> already carries it.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe(DARK_BG);

  await page.getByLabel('Theme').selectOption({ label: 'As the system' });
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await page.reload();
  await expect(page.getByLabel('Theme')).toHaveValue('auto');
});

test('hiding addresses masks every address on the home page and on a tool page, live and after a reload', async ({
  page,
  thirdParty,
}) => {
  resolversAnswer(thirdParty);
  await page.goto('/');
  await cardsLoaded(page);
  const addresses = page.locator('main [data-address]');
  await expect(addresses.first()).toHaveText('8.8.8.8');
  const hide = page.getByRole('button', { name: 'Hide addresses' });
  await expect(hide).toHaveAttribute('aria-pressed', 'false');
  await tabTo(page, hide);
  await page.keyboard.press('Enter');
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.x');
  const shown = await addresses.allTextContents();
  expect(shown.length).toBeGreaterThanOrEqual(8);
  expect(shown.every((text) => text === '8.8.8.x')).toBe(true);
  expect(await mainText(page)).not.toContain('8.8.8.8');
  await screenshots(page, 'prefs-home-masked');

  await page.goto('/dnsleak');
  await expect(page.locator('.own [data-address]')).toHaveText('8.8.8.x');
  await expect(page.getByRole('row').filter({ hasText: 'IPLeak.net' }).locator('[data-address]')).toHaveText('8.8.8.x');
  expect(await mainText(page)).not.toMatch(/8\.8\.8\.\d/);

  await page.reload();
  await expect(page.locator('.own [data-address]')).toHaveText('8.8.8.x');
  await page.getByRole('button', { name: 'Hide addresses' }).click();
  await expect(page.locator('.own [data-address]')).toHaveText('8.8.8.8');
});

test('the history records the address the home page saw, with its country, and clears in one action', async ({
  page,
}) => {
  await page.goto('/');
  await cardsLoaded(page);
  await page.getByRole('link', { name: 'Your address history' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your address history');
  await expect(page.getByText('kept only in this browser')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '8.8.8.8' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('United States');
  await expect(page.locator('main img.flag[src="/flags/us.svg"]')).toHaveCount(1);

  // A second visit of the same address is no new row.
  await page.goto('/');
  await cardsLoaded(page);
  await page.goto('/history');
  await expect(page.getByRole('row').filter({ hasText: '8.8.8.8' })).toHaveCount(1);
  await screenshots(page, 'prefs-history-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'prefs-history-dark');

  const clear = page.getByRole('button', { name: 'Clear the history' });
  await tabTo(page, clear);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('The history is cleared.');
  await expect(page.getByRole('table')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('No address recorded yet.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('netdiag.history'))).toBeNull();
});

test('the consensus line counts the sources that agree, and a source placing the address elsewhere is marked', async ({
  page,
}) => {
  // One source answers another country and city than the demo's fakes.
  await page.route('**/api/geo-free-b?*', async (route) => {
    const answer = await route.fetch();
    const record = (await answer.json()) as Record<string, unknown>;
    await route.fulfill({ response: answer, json: { ...record, country: 'DE', city: 'Frankfurt am Main' } });
  });
  await page.goto('/');
  await cardsLoaded(page);
  const line = page.locator('[data-consensus]');
  await expect(line).toHaveText(/^\d of 7 sources: .+, United States; .*\d differs?: .*IP\.SB/);
  const marked = page.locator('.geo-card').filter({ has: page.locator('.differs') });
  await expect(marked.filter({ hasText: 'IP.SB' })).toHaveCount(1);
  const differing = Number(/(\d) differs?:/.exec((await line.textContent()) ?? '')?.[1]);
  await expect(marked).toHaveCount(differing);
  await expect(page.locator('.geo-card').filter({ hasText: 'IP.SB' }).locator('.differs')).toHaveText('Differs');
  await screenshots(page, 'prefs-home-consensus-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'prefs-home-consensus-dark');
});

test('/ip/1.1.1.1: the consensus counts only the sources naming Brisbane, and says who named only the country and who differs', async ({
  page,
}) => {
  await page.goto('/ip/1.1.1.1');
  const cards = page.locator('.geo-card');
  await expect(cards.filter({ hasText: 'Australia' })).toHaveCount(7);
  const line = page.locator('[data-consensus]');
  // ipinfo.io, ipapi.is, IP2Location and the private source name Brisbane; ip-api.com South Brisbane; IP.SB and
  // the local database the country alone. The city is the sources' text, isolated (U+2068 … U+2069).
  await expect(line).toHaveText(
    '4 of 7 sources: \u2068Brisbane\u2069, Australia; 2 name the country only; 1 differs: ip-api',
  );
  const marked = cards.filter({ has: page.locator('.differs') });
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('South Brisbane');
});

test('a copy button puts the address on the clipboard, by keyboard, and says so to a screen reader', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const copy = page.locator('.hero-ip').getByRole('button', { name: 'Copy address' });
  await tabTo(page, copy);
  await page.keyboard.press('Enter');
  await expect(page.locator('.hero-ip [aria-live="polite"]')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('8.8.8.8');

  // Hidden for a screenshot, the button still copies the whole address.
  await page.getByRole('button', { name: 'Hide addresses' }).click();
  await cardsLoaded(page);
  const card = page.locator('.geo-card').filter({ hasText: 'IP.SB' });
  await card.getByRole('button', { name: 'Copy address' }).click();
  await expect(card.locator('[aria-live="polite"]')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('8.8.8.8');
});

test('where the clipboard is refused, the address is selected and the words say how to copy it', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
  });
  await page.goto('/');
  await page.locator('.hero-ip').getByRole('button', { name: 'Copy address' }).click();
  await expect(page.locator('.hero-ip [aria-live="polite"]')).toContainText('the address is selected');
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('8.8.8.8');
});

test('flags load only for the countries shown, one file each, and none is in the page’s script', async ({ page }) => {
  const flags: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/flags/')) flags.push(path);
  });
  await page.route('**/api/geo-free-b?*', async (route) => {
    const answer = await route.fetch();
    const record = (await answer.json()) as Record<string, unknown>;
    await route.fulfill({ response: answer, json: { ...record, country: 'DE' } });
  });
  await page.goto('/');
  await cardsLoaded(page);
  await expect(page.locator('.geo-card img.flag[src="/flags/de.svg"]')).toHaveJSProperty('complete', true);
  await expect.poll(() => [...new Set(flags)].sort()).toEqual(['/flags/de.svg', '/flags/us.svg']);
  const flag = page.locator('.geo-card img.flag').first();
  await expect(flag).toHaveAttribute('alt', '');
  expect(await flag.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // No flag's drawing travels in the page's script (each file names itself `flag-icons-<code>`).
  const scripts = await page
    .locator('script[src]')
    .evaluateAll((tags) => tags.map((tag) => (tag as HTMLScriptElement).src));
  for (const src of scripts) expect(await (await page.request.get(src)).text()).not.toContain('flag-icons-');

  await page.goto('/mac');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect([...new Set(flags)].sort()).toEqual(['/flags/de.svg', '/flags/us.svg']);
});

test('screenshots: a tool page light and dark with the theme pinned', async ({ page, thirdParty }) => {
  resolversAnswer(thirdParty);
  await page.goto('/dnsleak');
  await expect(page.locator('.own [data-address]')).toHaveText('8.8.8.8');
  await page.getByLabel('Theme').selectOption({ label: 'Dark' });
  await screenshots(page, 'prefs-dnsleak-dark');
  await page.getByLabel('Theme').selectOption({ label: 'Light' });
  await screenshots(page, 'prefs-dnsleak-light');
});
