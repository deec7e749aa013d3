import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Vite's content-hashed output: `assets/<name>-<8 characters>.<js|css>`.
const HASHED = /^.+-[A-Za-z0-9_-]{8}\.(?:js|css)$/;
const TEXT = /\.(?:js|css|html|webmanifest|json)$/;
const COMPRESSED = /\.(?:br|gz)$/;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** What another build of the same site would have called each of `from`'s chunks. */
export function renamedChunk(name: string): string {
  return name.replace(/\.(js|css)$/, 'n.$1');
}

/**
 * Writes to `to` the site in `from` as a second build would: every content-hashed chunk under another name (so
 * none of the first build's chunk names exists any more) and every reference to it rewritten; the service
 * worker's revision of index.html renewed, as a rebuild renews it, so the worker installs the new shell; no
 * compressed variants (the front listener then serves each file as it is). Returns the chunks' new names.
 */
export async function writeSecondBuild(from: string, to: string): Promise<Map<string, string>> {
  await cp(from, to, { recursive: true, filter: (source) => !COMPRESSED.test(source) });
  const names = new Map(
    (await readdir(join(to, 'assets'))).filter((name) => HASHED.test(name)).map((name) => [name, renamedChunk(name)]),
  );
  for (const [name, renamed] of names) await rename(join(to, 'assets', name), join(to, 'assets', renamed));
  const anyName = new RegExp(
    [...names.keys()].map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|'),
    'g',
  );
  for (const file of (await filesUnder(to)).filter((path) => TEXT.test(path))) {
    const text = await readFile(file, 'utf8');
    const rewritten = text.replace(anyName, (name) => names.get(name)!);
    if (rewritten !== text) await writeFile(file, rewritten);
  }
  const shell = createHash('md5')
    .update(await readFile(join(to, 'index.html')))
    .digest('hex');
  const worker = join(to, 'sw.js');
  await writeFile(
    worker,
    (await readFile(worker, 'utf8')).replace(/(url:"index\.html",revision:")[0-9a-f]+"/, `$1${shell}"`),
  );
  return names;
}

/** Puts the build in `next` where `served` was, as a deploy does: the front listener reads it again. */
export async function deploy(next: string, served: string): Promise<void> {
  await rm(served, { recursive: true, force: true });
  await rename(next, served);
}
