import type { Locator, Page } from '@playwright/test';
import { expect, screenshots, test } from './fixtures.js';
import { storeReport } from './store-report.js';

// Text a sharer or an upstream chose (a report's fields, status names) on a
// 375 px phone: one long word must not widen the page, and a right-to-left
// override inside a value must not reverse the words around it.

const PHONE_375 = { width: 375, height: 812 };
// The figure: 64 wide letters made the report page 1,032 px wide.
const LONG = 'W'.repeat(64);
const RLO = '\u202E';

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/**
 * Whether `word`, found in `container`'s text, is laid out left to right: its
 * first letter's box lies left of its last one's. An override that leaked out
 * of a value before it would draw the word backwards.
 */
async function readsLeftToRight(container: Locator, word: string): Promise<boolean> {
  return container.evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(target) ?? -1;
      if (at === -1) continue;
      const box = (offset: number) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect();
      };
      return box(at).left < box(at + target.length - 1).left;
    }
    throw new Error(`"${target}" is not in the text`);
  }, word);
}

/** On a phone a geo card is folded and draws its rows when the visitor opens it, as a visitor does to read them. */
async function openCard(page: Page): Promise<void> {
  await page.locator('.geo-card summary').first().click();
}

test.use({ viewport: PHONE_375 });

test('a report with a 64-character origin and long card values stays within a 375 px phone', async ({
  page,
  baseURL,
}) => {
  const url = await storeReport(page, baseURL!, { origin: LONG, city: 'c'.repeat(64), isp: 'i'.repeat(128) });
  await page.goto(url);
  await expect(page.locator('.report-meta')).toContainText(LONG);
  await openCard(page);
  await expect(page.locator('.geo-card')).toContainText('i'.repeat(128));
  expect(await pageWidth(page), 'page width at 375 px').toBeLessThanOrEqual(PHONE_375.width);
  await screenshots(page, 'report-long-origin');
});

test('a right-to-left override in a report’s origin does not reverse the text around it', async ({ page, baseURL }) => {
  const url = await storeReport(page, baseURL!, { origin: `${RLO}example.com`, isp: `${RLO}Google LLC` });
  await page.goto(url);
  const meta = page.locator('.report-meta');
  await expect(meta).toContainText('example.com');
  // The words after the origin in the same sentence, and the origin itself, read in order.
  expect(await readsLeftToRight(meta, 'expires')).toBe(true);
  expect(await readsLeftToRight(meta, 'example')).toBe(true);
  await openCard(page);
  await expect(page.locator('.geo-card')).toContainText('Google');
  expect(await readsLeftToRight(page.locator('.geo-card'), 'Google')).toBe(true);
  expect(await meta.textContent()).not.toContain(RLO);
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE_375.width);
  await screenshots(page, 'report-rlo-origin');
});

test('long status names and an override in one stay within a 375 px phone and in order', async ({ page }) => {
  const longName = 'Component'.repeat(9);
  await page.route(/\/api\/service-status\/detail\?/, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        components: [
          { name: longName, status: 'operational' },
          { name: `${RLO}Git Operations`, status: 'degraded_performance' },
        ],
        incidents: [
          {
            id: 'x1',
            name: 'Incident'.repeat(10),
            status: 'investigating',
            impact: 'minor',
            startedAt: '2026-11-20T10:00:00Z',
            url: 'https://www.githubstatus.com/incidents/x1',
          },
        ],
      }),
    }),
  );
  await page.goto('/status?id=github');
  const detail = page.locator('#status-detail');
  await expect(detail).toContainText(longName);
  expect(await pageWidth(page), 'page width at 375 px').toBeLessThanOrEqual(PHONE_375.width);
  const overridden = detail.locator('.component-list li').nth(1);
  await expect(overridden).toContainText('Git Operations');
  expect(await readsLeftToRight(overridden, 'Degraded')).toBe(true);
  expect(await readsLeftToRight(overridden, 'Operations')).toBe(true);
  await screenshots(page, 'status-long-names');
});
