import { expect, PHONE, test } from './fixtures.js';

// On a phone the header is one row above the content, in every language: the
// brand and a Menu button, which opens the navigation and the preferences
// (account, language, theme, addresses) by keyboard, moves the focus into
// them, and closes with Escape, the focus back on the button.

const ONE_ROW_PX = 64;
const LANGUAGES = [
  { code: 'en', menu: 'Menu', first: 'My IP' },
  { code: 'fr', menu: 'Menu', first: 'Mon IP' },
  { code: 'ru', menu: 'Меню', first: 'Мой IP' },
  { code: 'zh-CN', menu: '菜单', first: '我的 IP' },
] as const;

test.use({ viewport: PHONE });

for (const { code, menu, first } of LANGUAGES) {
  test(`in ${code} the header takes one row on a 390 px phone, and its menu works by keyboard`, async ({ page }) => {
    await page.goto('/status');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (code !== 'en') {
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByLabel('Language').selectOption(code);
      await expect(page.locator('html')).toHaveAttribute('lang', code);
      await page.getByRole('button', { name: menu }).click();
      await expect(page.getByRole('button', { name: menu })).toHaveAttribute('aria-expanded', 'false');
    }
    const header = page.locator('header');
    const height = await header.evaluate((el) => el.getBoundingClientRect().height);
    expect(height, `the header in ${code}`).toBeLessThanOrEqual(ONE_ROW_PX);
    // The content starts right under it.
    const top = await page.locator('main').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThanOrEqual(ONE_ROW_PX + 16);

    const nav = page.getByRole('navigation');
    const button = nav.getByRole('button', { name: menu });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    for (let i = 0; i < 10 && !(await button.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: first, exact: true })).toBeFocused();
    // The preferences are in the panel, after the links, in the keyboard's order.
    const language = nav.locator('.lang select').first();
    for (let i = 0; i < 40 && !(await language.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(language).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
    await expect(nav.getByRole('link')).toHaveCount(0);
  });
}
