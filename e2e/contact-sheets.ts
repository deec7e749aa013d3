import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';

/** One sheet: the shots of one page at one width, a column per language, a row per theme. */
export interface Sheet {
  name: string;
  width: number;
  rows: ReadonlyArray<{ label: string; files: ReadonlyArray<{ label: string; file: string }> }>;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function sheetHtml(sheet: Sheet): string {
  // Phone shots at half size, desktop ones at a quarter: four languages side by side either way.
  const thumb = sheet.width <= 600 ? sheet.width / 2 : sheet.width / 4;
  const cells = sheet.rows
    .map(
      (row) =>
        `<h2>${escape(row.label)}</h2><div class="row">${row.files
          .map((f) => `<figure><figcaption>${escape(f.label)}</figcaption><img src="../${escape(f.file)}"></figure>`)
          .join('')}</div>`,
    )
    .join('');
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:8px;font:14px sans-serif;background:#888}
h1,h2{margin:4px 0;font-size:15px}
.row{display:flex;gap:8px;align-items:flex-start}
figure{margin:0}
img{width:${thumb}px;display:block;outline:1px solid #333}
</style><h1>${escape(sheet.name)} at ${sheet.width} px</h1>${cells}`;
}

/** Writes `<out>/sheets/<name>-<width>.png` for each sheet, and `<out>/index.html` linking every shot. */
export async function writeContactSheets(browser: Browser, out: string, sheets: readonly Sheet[]): Promise<void> {
  mkdirSync(`${out}/sheets`, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  try {
    for (const sheet of sheets) {
      const html = `${out}/sheets/${sheet.name}-${sheet.width}.html`;
      writeFileSync(html, sheetHtml(sheet));
      await page.goto(`file://${html}`);
      await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => undefined))));
      await page.screenshot({ path: html.replace(/\.html$/, '.png'), fullPage: true });
    }
  } finally {
    await page.close();
  }
  const links = sheets
    .map((s) => `<li><a href="sheets/${s.name}-${s.width}.png">${escape(s.name)} at ${s.width} px</a></li>`)
    .join('');
  writeFileSync(
    `${out}/index.html`,
    `<!doctype html><meta charset="utf-8"><title>Screenshots</title><ul>${links}</ul>`,
  );
}
