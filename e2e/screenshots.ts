import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { writeContactSheets, type Sheet } from './contact-sheets.js';
import { DEMO_OIDC_CLIENT, startOidcProvider } from '../demo/oidc-provider.js';
import { CHROMIUM, CHROMIUM_ARGS } from './playwright.config.js';
import { featureNamespaces, shotPages, type ShotPage } from './screenshot-pages.js';
import { overflowFindings, rawKeys, sameAsEnglish, visibleTexts } from './shot-checks.js';
import { startSite } from './site-server.js';
import { hostResolverRules, startThirdParty } from './third-party.js';
import { answerTools } from './tool-answers.js';
import { freePorts } from '../test/support/free-ports.js';

// npm run screenshots [folder] [--pages=home,dnsleak] [--langs=fr,ru]: every
// page of the demo at phone and desktop width, light and dark, in each
// language, as `<page>-<lang>-<width>-<theme>.png` in the folder (default
// screenshots/), a contact sheet per page and width in its sheets/, and
// findings.txt: what a script can see (overflow, raw keys, English left in
// another language) for the person who then looks at every shot.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { pages: { type: 'string' }, langs: { type: 'string' } },
});
const OUT = resolve(positionals[0] ?? 'screenshots');
const LANGS = values.langs?.split(',') ?? ['en', 'zh-CN', 'fr', 'ru'];
const WIDTHS = [390, 1280] as const;
const THEMES = ['light', 'dark'] as const;
const HEIGHT = { 390: 844, 1280: 900 } as const;
// A page that runs a test settles within this; one still busy is photographed as it is, and noted.
const SETTLE_MS = 20_000;
const THIRD_PARTY = '127.89.0.2';

const EN_MESSAGES = JSON.parse(
  readFileSync(new URL('../web/site/src/locales/en.json', import.meta.url), 'utf8'),
) as object;
const NAMESPACES = [...Object.keys(EN_MESSAGES), ...featureNamespaces()];

/** Waits until the page's requests are over and nothing says it is busy; false when it never did. */
async function settled(page: Page): Promise<boolean> {
  try {
    await page.waitForLoadState('networkidle', { timeout: SETTLE_MS });
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: SETTLE_MS });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    return true;
  } catch {
    return false;
  }
}

/** Scrolled to the end and back, so images that load when near the window (flags) are in the full-page shot. */
async function lazyImagesLoaded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    window.scrollTo(0, 0);
  });
  await page
    .waitForFunction(() => [...document.images].every((img) => img.complete), undefined, { timeout: SETTLE_MS })
    .catch(() => undefined);
}

/** Two frames drawn: a new width or theme is laid out and painted. */
const painted = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

// Chromium draws Chinese with the system's fonts; without one every character is a box.
function hasChineseFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}
if (LANGS.includes('zh-CN') && !hasChineseFont()) {
  process.stderr.write('No Chinese font: the zh-CN shots show boxes. Install one: apt-get install fonts-noto-cjk\n');
}

const [oidcPort = 0] = await freePorts(1);
const site = await startSite({ OIDC_ISSUER: `http://localhost:${oidcPort}`, OIDC_CLIENT_ID: DEMO_OIDC_CLIENT });
const oidc = await startOidcProvider(oidcPort, site.url);
const thirdParty = await startThirdParty(THIRD_PARTY);
answerTools(thirdParty);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=${hostResolverRules(THIRD_PARTY)}`],
});

const findings: string[] = [];
const english = new Map<string, Set<string>>();
const sheets: Sheet[] = [];
let failed = false;

async function photograph(context: BrowserContext, lang: string, shot: ShotPage, path: string): Promise<void> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // As the browser tests' watch: errors only, and not the registration this script blocks on purpose.
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  try {
    await shot.prepare?.(page);
    await page.goto(`${site.url}${path}`);
    if (!(await settled(page))) problems.push(`still busy after ${SETTLE_MS / 1000} s`);
    const texts = await visibleTexts(page);
    if (lang === 'en') english.set(shot.name, new Set(texts));
    problems.push(...rawKeys(texts, NAMESPACES).map((key) => `raw key shown: ${key}`));
    const left = lang === 'en' ? [] : sameAsEnglish(texts, english.get(shot.name) ?? new Set());
    problems.push(...left.map((text) => `as in English: ${text}`));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT[width] });
      await lazyImagesLoaded(page);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await painted(page);
        const file = `${shot.name}-${lang}-${width}-${theme}.png`;
        problems.push(...(await overflowFindings(page)).map((finding) => `${width} px ${theme}: ${finding}`));
        await page.screenshot({ path: `${OUT}/${file}`, fullPage: true });
      }
    }
  } catch (err) {
    failed = true;
    problems.push(`not photographed: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await page.close();
  }
  const unique = [...new Set(problems)];
  if (unique.length > 0) findings.push(`${shot.name} (${lang}, ${path})`, ...unique.map((p) => `  ${p}`), '');
  process.stdout.write(`${shot.name}-${lang}: ${unique.length} findings\n`);
}

try {
  mkdirSync(OUT, { recursive: true });
  const only = values.pages?.split(',');
  const pages = shotPages().filter((p) => !only || only.includes(p.name));
  // One stored report for every language's shot of it.
  const paths = new Map<string, string>();
  for (const shot of pages) paths.set(shot.name, typeof shot.path === 'string' ? shot.path : await shot.path(site.url));
  for (const lang of LANGS) {
    // The browser's own language picks the site's, as for a first visit; service workers off, so every shot is fresh.
    const context = await browser.newContext({
      locale: lang,
      viewport: { width: WIDTHS[1], height: HEIGHT[WIDTHS[1]] },
      ignoreHTTPSErrors: true,
      serviceWorkers: 'block',
    });
    for (const shot of pages) await photograph(context, lang, shot, paths.get(shot.name)!);
    await context.close();
  }
  for (const shot of pages) {
    for (const width of WIDTHS) {
      sheets.push({
        name: shot.name,
        width,
        rows: THEMES.map((theme) => ({
          label: theme,
          files: LANGS.map((lang) => ({ label: lang, file: `${shot.name}-${lang}-${width}-${theme}.png` })),
        })),
      });
    }
  }
  await writeContactSheets(browser, OUT, sheets);
  writeFileSync(`${OUT}/findings.txt`, findings.length > 0 ? findings.join('\n') : 'Nothing found by the checks.\n');
  process.stdout.write(`Screenshots in ${OUT}; contact sheets in ${OUT}/sheets; findings in ${OUT}/findings.txt\n`);
} finally {
  await browser.close();
  await thirdParty.close();
  await oidc.close();
  await site.stop();
}
process.exitCode = failed ? 1 : 0;
