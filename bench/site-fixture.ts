import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFolder } from '../web/compress-build.js';

/** The fixture build's hashed script, about 200 KB, as Vite would name it. */
export const ASSET_PATH = '/assets/index-B2x9c1Qa.js';
const ASSET_BYTES = 200 * 1024;

/** Deterministic pseudo-random numbers, so every run serves the same bytes. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31);
}

/** Bundled-looking code: varied names and numbers, so it compresses about as a real bundle does. */
function script(bytes: number): string {
  const next = numbers(7);
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const line = `function ${String.fromCharCode(97 + (next() % 26))}${i.toString(36)}(e,t){const n=e[${next() % 997}]??t;return n>${next() % 100000}?n*${next() % 31}:"${next().toString(36)}"}\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('').slice(0, bytes);
}

/**
 * A build folder of our own for the static cases, so the benchmark does not
 * depend on the site's build: index.html as Vite writes it and a 200 KB
 * hashed script, with their brotli and gzip variants.
 */
export async function writeSiteFixture(dir: string): Promise<string> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  const index = [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="UTF-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
    '    <meta name="description" content="Network diagnostics: your IP address, geolocation, WHOIS, DNS, ASN and more." />',
    '    <link rel="icon" href="/favicon.svg" />',
    '    <title>Network diagnostics</title>',
    `    <script type="module" crossorigin src="${ASSET_PATH}"></script>`,
    '    <link rel="stylesheet" crossorigin href="/assets/index-Cx3d9aQ1.css">',
    '  </head>',
    '  <body>',
    '    <div id="app"></div>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
  await writeFile(join(dir, 'index.html'), index);
  await writeFile(join(dir, ASSET_PATH.slice(1)), script(ASSET_BYTES));
  await compressFolder(dir);
  return dir;
}
