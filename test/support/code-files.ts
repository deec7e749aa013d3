import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the code-folder tests read its settings files and walk its tree. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// What is not the project's code: installed packages, build and test output, local data (.gitignore).
const NOT_CODE = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-results', 'screenshots']);

/** Every TypeScript file (or file of `endings`) under `dir`, as a path relative to ROOT with `/` separators. */
export function codeFiles(dir = ROOT, endings = ['.ts']): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || NOT_CODE.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...codeFiles(path, endings));
    else if (endings.some((ending) => entry.name.endsWith(ending))) {
      files.push(relative(ROOT, path).split(sep).join('/'));
    }
  }
  return files;
}
