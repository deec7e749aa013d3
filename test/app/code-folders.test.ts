import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { Report } from 'c8';
import { ROOT, codeFiles } from '../support/code-files.js';

// The folders whose code the service does not run, so coverage leaves them
// out on purpose: the tests themselves, the benchmarks, the browser tests,
// and the site, which runs in the browser.
const NOT_SERVICE = ['test/', 'bench/', 'e2e/', 'web/site/'];

/** The files a TypeScript project checks, relative to ROOT. */
function checkedBy(project: string): Set<string> {
  const path = join(ROOT, project);
  const { config, error } = ts.readConfigFile(path, ts.sys.readFile);
  assert.equal(error, undefined, `${project} does not parse`);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(path));
  return new Set(parsed.fileNames.map((file) => file.slice(ROOT.length)));
}

test('every TypeScript file is type-checked: by tsconfig.json, or the site by its own', () => {
  const checked = new Set([...checkedBy('tsconfig.json'), ...checkedBy('web/site/tsconfig.json')]);
  const unchecked = codeFiles().filter((file) => !checked.has(file));
  assert.deepEqual(unchecked, [], 'files outside every type check; widen tsconfig.json');
});

test('every TypeScript file the service runs is under coverage (.c8rc.json)', () => {
  const settings = JSON.parse(readFileSync(join(ROOT, '.c8rc.json'), 'utf8')) as {
    include?: string[];
    exclude?: string[];
  };
  // c8's own matcher, as `c8` applies the settings file.
  const report = new Report({ include: settings.include, exclude: settings.exclude, reporter: [] });
  const { exclude } = report as unknown as { exclude: { shouldInstrument(file: string): boolean } };
  const service = codeFiles().filter((file) => !file.endsWith('.d.ts') && !NOT_SERVICE.some((f) => file.startsWith(f)));
  assert.ok(service.includes('app.ts') && service.includes('lib/upstream.ts'), 'the walk finds the service');
  const uncovered = service.filter((file) => !exclude.shouldInstrument(join(ROOT, file)));
  assert.deepEqual(uncovered, [], 'files outside coverage; widen .c8rc.json');
});
