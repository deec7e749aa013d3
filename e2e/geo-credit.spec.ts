import { test, expect, PHONE, screenshots, tabTo } from './fixtures.js';
import { startSite, type RunningSite } from './site-server.js';
import type { Page } from '@playwright/test';

const MAXMIND_SENTENCE =
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com.';
const DBIP_CREDIT = 'IP Geolocation by DB-IP';

const localCard = (page: Page, name: string) =>
  page.locator('article.geo-card', { has: page.getByRole('heading', { name, exact: true }) });

test('MaxMind GeoLite2 loaded (the default): its sentence under the geo-local card and in the footer, nothing of DB-IP', async ({
  page,
}) => {
  await page.goto('/ip/8.8.8.8');
  const card = localCard(page, 'MaxMind GeoLite2');
  await expect(card).toContainText('Mountain View');
  await expect(card.locator('.geo-credit')).toHaveText(MAXMIND_SENTENCE);
  await expect(card.getByRole('link', { name: 'https://www.maxmind.com' })).toHaveAttribute(
    'href',
    'https://www.maxmind.com',
  );
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(MAXMIND_SENTENCE);
  await expect(page.getByText(DBIP_CREDIT)).toHaveCount(0);
});

test.describe('with GEODB_PROVIDER=dbip', () => {
  let site: RunningSite;
  test.beforeAll(async () => {
    // A service of its own, downloading DB-IP's databases from the loopback fake at start.
    test.setTimeout(120_000);
    site = await startSite({ GEODB_PROVIDER: 'dbip' });
  });
  test.afterAll(async () => site.stop());

  test("DB-IP's credit links to db-ip.com under the geo-local card and in the footer, by keyboard, light and dark, on a phone", async ({
    page,
  }) => {
    await page.goto(`${site.url}/ip/8.8.8.8`);
    const card = localCard(page, 'DB-IP Lite');
    await expect(card).toContainText('Mountain View');
    await expect(card).toContainText('AS15169');
    const cardCredit = card.getByRole('link', { name: DBIP_CREDIT });
    await expect(cardCredit).toHaveAttribute('href', 'https://db-ip.com');
    const footerCredit = page.getByRole('contentinfo').getByRole('link', { name: DBIP_CREDIT });
    await expect(footerCredit).toHaveAttribute('href', 'https://db-ip.com');
    await expect(page.getByText('GeoLite2 data created by MaxMind')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'MaxMind GeoLite2' })).toHaveCount(0);
    await tabTo(page, footerCredit);

    await screenshots(page, 'geo-credit-dbip-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'geo-credit-dbip-dark');
    await page.setViewportSize(PHONE);
    await expect(footerCredit).toBeVisible();
  });

  test("a shared report's DB-IP card keeps its credit", async ({ page }) => {
    await page.goto(`${site.url}/ip/8.8.8.8`);
    await expect(page.locator('.geo-card').filter({ has: page.getByRole('link', { name: 'AS15169' }) })).toHaveCount(7);
    await page.getByRole('button', { name: 'Share report' }).click();
    const link = page.getByLabel('Link to the report');
    await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
    await page.goto(await link.inputValue());
    const card = localCard(page, 'DB-IP Lite');
    await expect(card).toContainText('Mountain View');
    await expect(card.getByRole('link', { name: DBIP_CREDIT })).toHaveAttribute('href', 'https://db-ip.com');
    await expect(page.locator('.geo-credit')).toHaveCount(1);
  });

  test('other pages carry the footer credit too', async ({ page }) => {
    await page.goto(`${site.url}/whois`);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: DBIP_CREDIT })).toBeVisible();
  });
});
