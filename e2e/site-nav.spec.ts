import type { Page } from '@playwright/test';
import { expect, PHONE, screenshots, tabTo, test } from './fixtures.js';

// The header's navigation: on a phone a Menu disclosure button over the grouped
// links, on a desktop the groups always on show; the current page marked on both.

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const menuButton = (page: Page) => nav(page).getByRole('button', { name: 'Menu' });

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('the navigation folds behind Menu, which opens and closes by keyboard and returns the focus', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
    const button = menuButton(page);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = page.locator(`#${await button.getAttribute('aria-controls')}`);
    await expect(panel).toBeHidden();
    await expect(nav(page).getByRole('link')).toHaveCount(0);

    await tabTo(page, button);
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toBeVisible();
    // Each group is a list named by its heading; the current page is marked.
    await expect(nav(page).getByRole('list', { name: 'Tests' }).getByRole('link')).toContainText(['My IP', 'Speed']);
    await expect(nav(page).getByRole('list', { name: 'Lookups' }).getByRole('link')).toContainText(['WHOIS', 'DNS']);
    await expect(nav(page).getByRole('list', { name: 'About' }).getByRole('link')).toHaveText(['API', 'Privacy']);
    await expect(nav(page).getByRole('link', { name: 'My IP' })).toHaveAttribute('aria-current', 'page');
    await expect(nav(page).locator('[aria-current]')).toHaveCount(1);
    // Opening moves the focus to the first link; the others follow in the keyboard's order.
    await expect(nav(page).getByRole('link', { name: 'My IP' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(nav(page).getByRole('link', { name: 'Run all tests' })).toBeFocused();
    await screenshots(page, 'nav-menu-open');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'nav-menu-open-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // The screenshots end at desktop width, where the button is hidden.
    await page.setViewportSize(PHONE);

    await nav(page).getByRole('link', { name: 'Addresses' }).focus();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(button).toBeFocused();
    await expect(panel).toBeHidden();
  });

  test('following a link, even the current page’s, or going Back closes the menu; the new page has the focus and the mark', async ({
    page,
  }) => {
    await page.goto('/mac');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await menuButton(page).click();
    await expect(nav(page).getByRole('link', { name: 'MAC' })).toHaveAttribute('aria-current', 'page');
    // The current page's own link closes it too, though the page stays.
    await nav(page).getByRole('link', { name: 'MAC' }).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(page).toHaveURL(/\/mac$/);
    await menuButton(page).click();
    await nav(page).getByRole('link', { name: 'Censorship' }).click();
    await page.waitForURL('**/censorship');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(nav(page).getByRole('link')).toHaveCount(0);
    await expect(page.getByRole('main')).toBeFocused();

    await menuButton(page).click();
    await expect(nav(page).getByRole('link', { name: 'Censorship' })).toHaveAttribute('aria-current', 'page');
    await expect(nav(page).getByRole('link', { name: 'MAC' })).not.toHaveAttribute('aria-current');
    // Back closes it too.
    await page.goBack();
    await page.waitForURL('**/mac');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await menuButton(page).click();
    await expect(nav(page).getByRole('link', { name: 'MAC' })).toHaveAttribute('aria-current', 'page');
    // A tool's page, reached from the menu, is marked too.
    await nav(page).getByRole('link', { name: 'Security checklist' }).click();
    await page.waitForURL('**/checklist');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await menuButton(page).click();
    await expect(nav(page).getByRole('link', { name: 'Security checklist' })).toHaveAttribute('aria-current', 'page');
  });
});

test('on a desktop every group is on show without a Menu button, and the current page is marked', async ({ page }) => {
  await page.goto('/whois');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(menuButton(page)).toBeHidden();
  for (const name of ['Tests', 'Lookups', 'About']) await expect(nav(page).getByRole('list', { name })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'WHOIS' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).locator('[aria-current]')).toHaveCount(1);
  // The header stays short: the groups fit on a few lines at 1280 px.
  const height = await page.locator('header').evaluate((el) => el.getBoundingClientRect().height);
  expect(height, 'the header at 1280 px').toBeLessThan(260);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'nav-desktop-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const api = nav(page).getByRole('link', { name: 'API' });
  await tabTo(page, api);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/reference');
  await expect(api).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).getByRole('link', { name: 'WHOIS' })).not.toHaveAttribute('aria-current');
});
