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
  // The page's own content, not the header, whose navigation grows with every page the site has.
  const height = await page.evaluate(() => document.querySelector('main')!.scrollHeight);
  expect(height, 'the home page on a 390 px phone').toBeLessThan(2300);

  await ipinfo.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(ipinfo.locator('dl')).toBeVisible();
  await expect(ipinfo.locator('.row').filter({ hasText: 'Organisation' })).toContainText('Google LLC');
});
