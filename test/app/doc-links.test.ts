import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Lexer, type Token } from 'marked';
import GithubSlugger from 'github-slugger';
import { APP_ROOT } from '../../lib/app-root.js';

// Build output, installs, data and test runs hold Markdown we do not write.
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-results', 'playwright-report']);
const DOCS_MAX_BYTES = 120 * 1024;

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every token, nested ones included (links sit inside paragraphs, lists and tables). */
function* walk(tokens: Token[]): Generator<Token> {
  for (const token of tokens) {
    yield token;
    const nested = token as {
      tokens?: Token[];
      items?: Token[];
      header?: { tokens: Token[] }[];
      rows?: { tokens: Token[] }[][];
    };
    if (nested.tokens) yield* walk(nested.tokens);
    if (nested.items) yield* walk(nested.items);
    for (const cell of nested.header ?? []) yield* walk(cell.tokens);
    for (const cell of (nested.rows ?? []).flat()) yield* walk(cell.tokens);
  }
}

/** A heading's text as GitHub renders it: code spans and emphasis without their marks. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      const inner = (token as { tokens?: Token[] }).tokens;
      if (inner) return plainText(inner);
      return 'text' in token ? String(token.text) : '';
    })
    .join('');
}

interface Parsed {
  targets: string[];
  anchors: Set<string>;
}

function parse(file: string): Parsed {
  const tokens = Lexer.lex(readFileSync(file, 'utf8'));
  const slugger = new GithubSlugger();
  const targets: string[] = [];
  const anchors = new Set<string>();
  for (const token of walk(tokens)) {
    if (token.type === 'link' || token.type === 'image') targets.push(token.href as string);
    if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])));
    // The README shows the screenshots with <img> to size them.
    if (token.type === 'html') for (const [, src] of token.raw.matchAll(/\bsrc="([^"]+)"/g)) targets.push(src!);
  }
  return { targets, anchors };
}

const parsed = new Map<string, Parsed>();
const parsedOnce = (file: string): Parsed => parsed.get(file) ?? parsed.set(file, parse(file)).get(file)!;

test('every relative link in every Markdown file names a file that exists, and a heading it has', () => {
  const files = markdownFiles(APP_ROOT);
  assert.ok(files.length > 10, `found only ${files.length} Markdown files`);
  const broken: string[] = [];
  for (const file of files) {
    for (const target of parsedOnce(file).targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      const where = `${relative(APP_ROOT, file)}: ${target}`;
      if (!existsSync(resolved)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
        if (!parsedOnce(resolved).anchors.has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test(`docs/ stays at most ${DOCS_MAX_BYTES / 1024} KB, every file counted`, () => {
  const sizes = filesUnder(join(APP_ROOT, 'docs')).map((file) => statSync(file).size);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  assert.ok(total <= DOCS_MAX_BYTES, `docs/ holds ${total} bytes; a fact lives once, beside its code or in docs/`);
});
