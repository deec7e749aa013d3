import { assertReadableOnPhone, DESKTOP, expect, PHONE, test } from './fixtures.js';
import { MAXED_REPORT, storeSampleReport } from './sample-report.js';
import { shotPages } from './screenshot-pages.js';
import { answerTools } from './tool-answers.js';

// Every page npm run screenshots photographs, on a 390 px phone in each of
// the site's languages, the quick tools run to their end: French and Russian
// words run longer than English ones, and a country's name in a select, a
// sentence in a table's cell or a table's sixth column met only one language
// or one state. Nothing may be wider than the screen or shown without its name.
const LANGUAGES = ['en', 'zh-CN', 'fr', 'ru'] as const;

test.use({ viewport: PHONE });
// Each page on its own: the file's 33 pages spread over the workers.
test.describe.configure({ mode: 'parallel' });

for (const shot of shotPages()) {
  test(`${shot.name} is readable on a phone in every language`, async ({ page, thirdParty, watch, baseURL }) => {
    test.setTimeout(180_000);
    for (const pattern of shot.fails ?? []) watch.allow(pattern);
    answerTools(thirdParty);
    await shot.prepare?.(page);
    const path = typeof shot.path === 'string' ? shot.path : await shot.path(baseURL!);
    for (const language of LANGUAGES) {
      await page.addInitScript((code) => localStorage.setItem('netdiag.locale', code), language);
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
      await assertReadableOnPhone(page, `${shot.name} in ${language}`);
    }
  });
}

test('a report holding every section fits a 1280 px desktop in every language, no table scrolling sideways', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(DESKTOP);
  const path = await storeSampleReport(baseURL!);
  for (const language of LANGUAGES) {
    await page.addInitScript((code) => localStorage.setItem('netdiag.locale', code), language);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('.hop-table')).toBeVisible();
    const sideways = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main .table-wrap')]
        .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
        .map((wrap) => wrap.closest('section')?.querySelector('h2')?.textContent ?? wrap.className),
    );
    expect(sideways, `the report's tables in ${language}`).toEqual([]);
  }
});

test('a report with every field at its maximum length fits a 1280 px desktop and a 390 px phone in every language, nothing sideways', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const path = await storeSampleReport(baseURL!, MAXED_REPORT);
  for (const [language, viewport] of LANGUAGES.flatMap((code) =>
    [DESKTOP, PHONE].map((size) => [code, size] as const),
  )) {
    await page.setViewportSize(viewport);
    await page.addInitScript((code) => localStorage.setItem('netdiag.locale', code), language);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('.hop-table')).toBeVisible();
    const wider = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    // What runs past the window or scrolls sideways, outermost only, named by its section's heading.
    const past = await page.evaluate(() => {
      const offends = (el: Element) =>
        (/auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1) ||
        el.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
      return [...document.querySelectorAll('main *')]
        .filter((el) => offends(el) && !(el.parentElement && offends(el.parentElement)))
        .map(
          (el) =>
            `${el.closest('section')?.querySelector('h2')?.textContent ?? ''}: ${el.tagName.toLowerCase()}.${el.className}`,
        );
    });
    expect({ wider, past }, `the report in ${language} at ${viewport.width} px`).toEqual({ wider: 0, past: [] });
  }
});
