import type { Page } from '@playwright/test';
import { expect, PHONE, test } from './fixtures.js';
import { answerTools } from './tool-answers.js';

// Nothing on show moves when a page's answers arrive (Lighthouse's cumulative layout shift, under 0.1 on every
// page): each page's late answer is held until the page has painted, so what arrives later arrives into a page
// already on screen, as on a slow phone, whatever this machine's speed. The room for it must already be there.
test.use({ viewport: PHONE });

interface Case {
  path: string;
  /** The answer that fills the page after its first paint. */
  late: string | RegExp;
  /** The page's words once everything has arrived. */
  settled: RegExp;
  /** Words the page shows only while it waits. */
  waiting?: RegExp;
}

const CASES: Case[] = [
  { path: '/addresses', late: '**/site-settings.json', settled: /This site \(IPv4\)/ },
  { path: '/runall', late: '**/site-settings.json', settled: /Your addresses? as seen/ },
  { path: '/persona', late: '**/api/configs', settled: /Its time zone/ },
  { path: '/dnsleak', late: '**/api/client-ip', settled: /Test finished/ },
  { path: '/status', late: '**/api/service-status', settled: /Last checked|Not checked yet/ },
  {
    path: '/latency',
    late: /\/api\/(probe-countries|client-ip)/,
    settled: /Use your address/,
    waiting: /Loading the countries that have probes/,
  },
];

/** The layout shifts of the page so far, as Chromium scores them (none within half a second of an input). */
async function shifted(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>;
          resolve(entries.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0));
        }).observe({ type: 'layout-shift', buffered: true });
        // No entry at all is no shift: the observer then never calls back.
        setTimeout(() => resolve(0), 1000);
      }),
  );
}

for (const { path, late, settled, waiting } of CASES) {
  test(`${path}: what arrives after the first paint moves nothing on show`, async ({ page, thirdParty }) => {
    answerTools(thirdParty);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(late, async (route) => {
      await released;
      await route.fallback();
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Two frames: the page as it stands before its answers has been painted.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    release();
    await expect(page.locator('main')).toContainText(settled, { timeout: 20_000 });
    if (waiting) await expect(page.locator('main')).not.toContainText(waiting, { timeout: 20_000 });
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    expect(await shifted(page)).toBeLessThan(0.1);
  });
}
