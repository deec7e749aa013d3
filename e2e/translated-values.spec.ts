import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { answerAddressLiterals, answerTools } from './tool-answers.js';

// Words the site shows that are not in a page's own template, and so were
// left in English in the other languages: Radar's codes for an outage's level
// and cause, and the names of this site's own rows on the addresses page.

async function inLanguage(page: Page, code: string): Promise<void> {
  await page.addInitScript((chosen) => localStorage.setItem('netdiag.locale', chosen), code);
}

test('an outage’s level and cause are said in Russian and French', async ({ page }) => {
  await inLanguage(page, 'ru');
  await page.goto('/outages');
  const iraq = page.locator('.event').filter({ hasText: 'Government-directed shutdown during exams.' });
  await expect(iraq.locator('.tag').filter({ hasText: 'По всей стране' })).toBeVisible();
  await expect(iraq.locator('.row').filter({ hasText: 'Причина' })).toContainText('По решению властей');
  const cuba = page.locator('.event').filter({ hasText: 'Power outage affected connectivity' });
  await expect(cuba.locator('.tag').filter({ hasText: 'Региональный' })).toBeVisible();
  await expect(cuba.locator('.row').filter({ hasText: 'Причина' })).toContainText('Отключение электричества');

  await inLanguage(page, 'fr');
  await page.goto('/outages');
  await expect(iraq.locator('.row').filter({ hasText: 'Cause' })).toContainText('Sur ordre du gouvernement');
});

test('this site’s own rows on the addresses page are named in French and Chinese', async ({ page, thirdParty }) => {
  answerTools(thirdParty);
  await answerAddressLiterals(page);
  await inLanguage(page, 'fr');
  await page.goto('/addresses');
  const ipv4 = page.getByRole('region', { name: 'IPv4' });
  await expect(ipv4.getByRole('rowheader', { name: 'Ce site (IPv4)' })).toBeVisible();
  await expect(ipv4.getByRole('rowheader', { name: 'Depuis la Chine (ipip.net)' })).toBeVisible();
  await expect(page.getByText('This site')).toHaveCount(0);

  await inLanguage(page, 'zh-CN');
  await page.goto('/addresses');
  await expect(page.getByRole('rowheader', { name: '本站（IPv6）' })).toBeVisible();
});
