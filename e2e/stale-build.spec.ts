import { mkdtemp, cp, rm, unlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { deploy, writeSecondBuild } from './second-build.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';

// A tab left open across a deploy: its next page's chunk is gone from the server. The site reloads itself into
// that page once, from the new build; when the new build lacks the chunk too, it says so, and reloads no more.
// Each test serves a copy of `npm run build:web`'s output from a folder of its own (FRONTEND_DIR).
const BUILT = fileURLToPath(new URL('../dist/site/', import.meta.url));
const LANGUAGES = ['en', 'zh-CN', 'fr', 'ru'] as const;
const message = (language: string): string =>
  JSON.parse(readFileSync(new URL(`../web/site/src/locales/${language}.json`, import.meta.url), 'utf8')).site
    .unloadable;

let fakes: AllFakes;
let folder: string;
let site: RunningSite | undefined;
const served = () => join(folder, 'site');

test.beforeAll(async () => {
  fakes = await startAllFakes();
});
test.afterAll(async () => {
  await fakes?.close();
});
test.beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'netdiag-stale-build-'));
  await cp(BUILT, served(), { recursive: true });
});
test.afterEach(async () => {
  await site?.stop();
  site = undefined;
  await rm(folder, { recursive: true, force: true });
});

/** The front listener's index.html, once it names `chunk`: the build it serves. */
async function serving(chunk: string): Promise<void> {
  await expect.poll(async () => (await fetch(`${site!.url}/index.html`)).text(), { timeout: 30_000 }).toContain(chunk);
}

/** Counts the page's document loads: the first visit is one, each reload one more. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => loads++);
  return () => loads;
}

/** Opens the privacy page and waits until the service worker controls it, as in a tab open for a while. */
async function openAndSettle(page: Page): Promise<void> {
  await page.goto(`${site!.url}/privacy`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

const whoisLink = (page: Page) => page.locator('nav.site-nav').getByRole('link', { name: 'WHOIS', exact: true });

test('a deploy under an open page: the click to a page not yet visited reloads into the new build and shows it', async ({
  page,
  watch,
}) => {
  test.setTimeout(120_000);
  // The old build's chunks the page asks for are gone: that is the deploy (each 404 is checked below to be one).
  watch.allow(/HTTP 404: .*\/assets\//);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 404/);
  site = await startService({ ...fakes.env, FRONTEND_DIR: served() });
  const loads = countLoads(page);
  await openAndSettle(page);

  const names = await writeSecondBuild(served(), join(folder, 'next'));
  const [oldShell, newShell] = [...names].find(([name]) => /^index-.*\.js$/.test(name))!;
  await deploy(join(folder, 'next'), served());
  await serving(newShell);

  const asked: string[] = [];
  const missing: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(new URL(response.url()).pathname.replace('/assets/', ''));
  });
  await whoisLink(page).click();
  // The reload waits up to 10 s for the new build's worker to take over (lib/stale-build.ts); a busy machine takes it.
  await expect(page).toHaveURL(/\/whois$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'WHOIS lookup' })).toBeVisible({ timeout: 30_000 });
  const scripts = await page.evaluate(() => [...document.scripts].map((script) => new URL(script.src).pathname));
  expect(scripts).toContain(`/assets/${newShell}`);
  expect(scripts).not.toContain(`/assets/${oldShell}`);
  const whoisChunks = asked.filter((path) => path.startsWith('/assets/WhoisPage-'));
  expect(whoisChunks.some((path) => names.has(path.slice('/assets/'.length)))).toBe(true);
  expect(whoisChunks.some((path) => [...names.values()].includes(path.slice('/assets/'.length)))).toBe(true);
  expect(missing.length).toBeGreaterThan(0);
  expect(missing.filter((name) => !names.has(name))).toEqual([]);
  expect(loads()).toBe(2);
  await expect(page.getByText(message('en'))).toHaveCount(0);
});

test('a chunk missing from the new build too: one reload, then the page says so in each language, and reloads no more', async ({
  page,
  watch,
}) => {
  test.setTimeout(180_000);
  watch.allow(/HTTP 404: .*\/assets\/WhoisPage-/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 404/);
  const names = await writeSecondBuild(served(), join(folder, 'next'));
  const whois = [...names.values()].find((name) => /^WhoisPage-.*\.js$/.test(name))!;
  await unlink(join(folder, 'next', 'assets', whois));
  await deploy(join(folder, 'next'), served());
  site = await startService({ ...fakes.env, FRONTEND_DIR: served() });
  const loads = countLoads(page);

  for (const language of LANGUAGES) {
    await page.addInitScript((code) => localStorage.setItem('netdiag.locale', code), language);
    await openAndSettle(page);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const before = loads();
    await whoisLink(page).click();
    const note = page.getByRole('alert').filter({ hasText: message(language) });
    await expect(note).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/\/whois$/);
    expect(loads() - before, `reloads in ${language}`).toBe(1);
    // A loop would have reloaded again by now; the page stays as it is.
    await page.waitForTimeout(2000);
    expect(loads() - before, `reloads in ${language}`).toBe(1);
    await expect(note).toBeVisible();
  }
});
