import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

/** What a test chooses of a stored report: its origin and its one card's free texts. */
export interface ReportFields {
  origin: string;
  city?: string;
  isp?: string;
}

/** Stores a one-card report through the real API, as the site's Share button would, and returns its page. */
export async function storeReport(page: Page, baseURL: string, fields: ReportFields): Promise<string> {
  const now = new Date().toISOString();
  const card = { source: 'IPinfo', ip: '8.8.8.8', countryCode: 'US', city: fields.city, isp: fields.isp };
  const answer = await page.request.post('/api/report', {
    headers: { referer: `${baseURL}/` },
    data: {
      report: {
        v: 1,
        generatedAt: now,
        origin: fields.origin,
        locale: 'en',
        sections: { ipinfo: { testedAt: now, cards: [card] } },
      },
      ttlDays: 1,
    },
  });
  expect(answer.status()).toBe(201);
  const { id } = (await answer.json()) as { id: string };
  return `/r/${id}`;
}

/** Shares the page's report as a visitor would and opens its link. */
export async function shareAndOpen(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Share report' }).click();
  const link = page.getByLabel('Link to the report');
  await expect(link).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}$/);
  await page.goto(await link.inputValue());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shared report');
}
