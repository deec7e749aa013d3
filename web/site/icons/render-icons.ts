import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../e2e/playwright.config.js';

// `node --import tsx web/site/icons/render-icons.ts`: draws the web app manifest's icons from their SVG
// sources (the favicon, and its maskable form with room around the mark) with the browser the tests use,
// into public/icons/. The PNGs are committed, so the build needs no browser; run this after changing an SVG.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const ICONS = [
  { source: '../public/favicon.svg', size: 192, out: 'icon-192.png' },
  { source: '../public/favicon.svg', size: 512, out: 'icon-512.png' },
  { source: 'maskable.svg', size: 192, out: 'maskable-192.png' },
  { source: 'maskable.svg', size: 512, out: 'maskable-512.png' },
];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = await readFile(here(icon.source), 'utf8');
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:100vw;height:100vh}</style>${svg}`,
    );
    await page.screenshot({ path: here(`../public/icons/${icon.out}`), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
