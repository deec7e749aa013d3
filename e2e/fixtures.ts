import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { hostResolverRules, startThirdParty, thirdPartyAddress, type ThirdParty } from './third-party.js';

export { expect };

const SHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export interface Watch {
  /** Lets a test expect a failure (a 404 report, a reserved address's 400). */
  allow(pattern: RegExp): void;
}

/**
 * Every test watches its page: a request that fails, an answer of 400 or more,
 * an uncaught error or a console error fails the test unless the test said
 * it expects that one.
 */
export const test = base.extend<
  { watch: Watch; thirdParty: ThirdParty },
  { thirdPartyServer: ThirdParty; ownResolverRules: string[] }
>({
  // Host names a spec file maps itself (`test.use({ ownResolverRules: ['MAP v6.test [::1]'] })`),
  // ahead of the fake's catch-all.
  ownResolverRules: [[], { scope: 'worker', option: true }],
  // Every name but the site's own resolves to this worker's third-party fake (e2e/third-party.ts).
  launchOptions: [
    async ({ launchOptions, ownResolverRules }, use, workerInfo) => {
      const rules = hostResolverRules(thirdPartyAddress(workerInfo.workerIndex), ownResolverRules);
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), `--host-resolver-rules=${rules}`] });
    },
    { scope: 'worker' },
  ],
  thirdPartyServer: [
    // Playwright reads which fixtures a fixture needs from this pattern; this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const server = await startThirdParty(thirdPartyAddress(workerInfo.workerIndex));
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  /** The third-party fake, emptied after each test. */
  thirdParty: async ({ thirdPartyServer }, use) => {
    await use(thirdPartyServer);
    thirdPartyServer.reset();
  },
  // Playwright reads which fixtures a fixture needs from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  watch: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('requestfailed', (request) => {
        // A navigation or a newer lookup cancels requests on purpose.
        if (request.failure()?.errorText !== 'net::ERR_ABORTED') {
          problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
        }
      });
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(
        problems.filter((p) => !allowed.some((a) => a.test(p))),
        'failed requests and console errors',
      ).toEqual([]);
    },
    { auto: true },
  ],
});

/** Presses Tab until `target` has the focus: proof it is in the keyboard's order. */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${limit} presses`);
}

/**
 * What a phone must never do: the page wider than the screen, a part of it
 * that scrolls out of sight inside the page (a table, a graph, a record), an address, a
 * prefix or any other unspaced value in the monospace face broken across lines, a
 * table's cell shown without its column's name (a phone reads a table as a list), or a
 * checkbox or radio button against its words.
 */
export async function assertReadableOnPhone(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name} is wider than a 390 px phone`).toBeLessThanOrEqual(0);
  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')].flatMap((el) => {
      const style = getComputedStyle(el);
      const scrolls = (overflow: string) => overflow === 'auto' || overflow === 'scroll';
      const what = `${el.tagName.toLowerCase()}.${el.className}`;
      const out: string[] = [];
      if (el.scrollWidth > el.clientWidth + 1 && scrolls(style.overflowX)) {
        out.push(`${what} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      if (el.scrollHeight > el.clientHeight + 1 && scrolls(style.overflowY)) {
        out.push(`${what} cuts its end: ${el.scrollHeight} > ${el.clientHeight}`);
      }
      return out;
    }),
  );
  expect(hidden, `${name} hides content in a box that scrolls inside the page on a phone`).toEqual([]);
  const broken = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('main .mono, main .answers li, main .hero-ip')) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        if (!text || /\s/.test(text) || text.length > 45) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(text);
      }
    }
    return out;
  });
  expect(broken, `${name} breaks a value across lines on a phone`).toEqual([]);
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main .table td')]
      .filter((td) => getComputedStyle(td).display === 'block' && td.textContent?.trim())
      .filter((td) => ['none', '""'].includes(getComputedStyle(td, '::before').content))
      .map((td) => td.textContent!.trim()),
  );
  expect(unnamed, `${name} shows a table's value without its column's name on a phone`).toEqual([]);
  const touching = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main .choice')].flatMap((choice) => {
      const box = choice.querySelector('input')?.getBoundingClientRect();
      const label = choice.querySelector('input + *')?.getBoundingClientRect();
      return box && label && label.left - box.right < 4 ? [choice.textContent?.trim() ?? ''] : [];
    }),
  );
  expect(touching, `${name} puts a checkbox against its words on a phone`).toEqual([]);
}

/** Full-page screenshots at desktop and phone width; at phone width nothing may overflow or scroll sideways. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await assertReadableOnPhone(page, name);
  await page.screenshot({ path: `${SHOTS}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}
