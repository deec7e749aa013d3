import { expect, PHONE, test } from './fixtures.js';

// A phone reads the comparison first: every source on one line, each opening to its rows.
test.use({ viewport: PHONE });

test('on a phone the home page folds each source to its place and network, and a card opens by keyboard', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('.hero-ip')).toHaveText('8.8.8.8');
  const cards = page.locator('.geo-card');
  await expect(cards).toHaveCount(7);
  const ipinfo = cards.filter({ hasText: 'IPinfo' });
  await expect(ipinfo.locator('.geo-summary')).toHaveText('Mountain View, US · AS15169');
  await expect(cards.filter({ hasText: 'ip-api' }).locator('.geo-summary')).toHaveText('Ashburn, US · AS15169');
  await expect(ipinfo.locator('dl')).toBeHidden();
  // The whole page: the navigation folds behind the Menu button, so the header stays short however many
  // pages the site has (258 px with the Sign-in button; 471 px without it when the links wrapped onto eight lines).
  const header = await page.locator('header').evaluate((el) => el.getBoundingClientRect().height);
  expect(header, 'the header on a 390 px phone').toBeLessThan(300);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, 'the home page on a 390 px phone').toBeLessThan(2650);

  await ipinfo.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(ipinfo.locator('dl')).toBeVisible();
  await expect(ipinfo.locator('.row').filter({ hasText: 'Organisation' })).toContainText('Google LLC');
  // A folded card draws its rows, and builds its clock, only once opened: the local time is there all the same.
  await expect(ipinfo.locator('.local-time')).toHaveText(/^local time \d\d:\d\d.*GMT/);
});
