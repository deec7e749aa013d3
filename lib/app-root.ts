import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The application root is the folder holding package.json, whether the code
// runs from source (tsx) or from the compiled dist/ tree.
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const APP_ROOT = findRoot();

const pkg = JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
};
export const PRODUCT_NAME = pkg.name;
export const PRODUCT_VERSION = pkg.version;
/** The code's licence, an SPDX identifier (package.json's `license`). */
export const PRODUCT_LICENCE = pkg.license;

/** Resolves a setting's path against the application root unless it is absolute. */
export function fromAppRoot(path: string): string {
  return resolve(APP_ROOT, path);
}
