import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { contentType } from 'mime-types';
import { cacheClassOf, NO_STORE } from './cache-class.js';
import type { Coding } from './content-encoding.js';
import { securityHeaders, type SecurityHeaders } from './security-headers.js';

/** How much of a build is held in memory; anything past the caps is streamed from disk on each request. */
export interface MemoryCaps {
  /** Largest file (and variant) held in memory, in bytes. */
  file: number;
  /** All held bytes together, variants included. */
  total: number;
}

// A Vite build's largest chunk is a few hundred KB; the total keeps an odd
// FRONTEND_DIR (a folder of photos) from filling the process's memory.
export const DEFAULT_CAPS: MemoryCaps = { file: 1024 * 1024, total: 64 * 1024 * 1024 };

/** One coding of a file, with its answer's headers worked out once. */
export interface Variant {
  /** The 200 answer's headers. */
  headers: OutgoingHttpHeaders;
  /** The 304 answer's headers: those a 200 would carry that describe the cached copy. */
  notModified: OutgoingHttpHeaders;
  /** The bytes, when held in memory. */
  body: Buffer | undefined;
  /** The file on disk, streamed when `body` is not held. */
  path: string;
}

/** A file of the build as served under one cache class. */
export interface SiteFile {
  identity: Variant;
  br: Variant | undefined;
  gzip: Variant | undefined;
  /** Whether a compressed variant exists, so the answer depends on Accept-Encoding. */
  compressed: boolean;
  /** Whether every variant's bytes are in memory. */
  inMemory: boolean;
}

/** A build folder as read at one moment. */
export interface Site {
  /** Files by URL path (decoded, starting with `/`); a folder's index.html also under `<folder>/`. */
  files: Map<string, SiteFile>;
  /** index.html answered to single-page-app navigations (`no-store`); absent when the folder holds no index.html. */
  fallback: SiteFile | undefined;
  /** Every folder read, for watching; `ino` tells a folder made again at the same path. */
  folders: Folder[];
  /** Bytes held in memory. */
  memoryBytes: number;
}

const CODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

export interface Folder {
  path: string;
  ino: number;
}

interface Found {
  path: string;
  stats: Stats;
}

/** Regular files under `root` by path relative to it (with `/`), and the folders read; dot-files (`.vite/`) stay private. */
async function walk(root: string): Promise<{ files: Map<string, Found>; folders: Folder[] }> {
  const files = new Map<string, Found>();
  const folders: Folder[] = [];
  const visit = async (folder: string, prefix: string): Promise<void> => {
    let entries;
    try {
      const { ino } = await stat(folder);
      entries = await readdir(folder, { withFileTypes: true });
      folders.push({ path: folder, ino });
    } catch (err) {
      // A folder not (yet) there is an empty build; a rebuild can remove one mid-walk.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      const stats = await stat(path).catch(() => undefined);
      if (stats?.isDirectory()) await visit(path, `${prefix}${entry.name}/`);
      else if (stats?.isFile()) files.set(`${prefix}${entry.name}`, { path, stats });
    }
  };
  await visit(root, '');
  return { files, folders };
}

interface Loaded {
  coding: Coding;
  path: string;
  size: number;
  etag: string;
  body: Buffer | undefined;
}

/** A strong validator: a digest of exactly the bytes sent, so each coding of a file has its own. */
function etagOf(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest('base64url')}"`;
}

async function load(coding: Coding, found: Found, inMemory: boolean): Promise<Loaded> {
  const hash = createHash('sha1');
  if (inMemory) {
    const body = await readFile(found.path);
    return { coding, path: found.path, size: body.length, etag: etagOf(hash.update(body)), body };
  }
  await pipeline(createReadStream(found.path), hash);
  return { coding, path: found.path, size: found.stats.size, etag: etagOf(hash), body: undefined };
}

// A 304 carries the security headers too: the browser updates its stored
// copy's headers from it, so a copy stored before they existed gains them.
function variant(
  loaded: Loaded,
  type: string,
  cacheControl: string,
  compressed: boolean,
  headers: SecurityHeaders,
): Variant {
  const notModified: OutgoingHttpHeaders = {
    etag: loaded.etag,
    'cache-control': cacheControl,
    ...headers.forType(type),
  };
  if (compressed) notModified.vary = 'Accept-Encoding';
  const answer: OutgoingHttpHeaders = { 'content-type': type, 'content-length': loaded.size, ...notModified };
  if (loaded.coding !== 'identity') answer['content-encoding'] = loaded.coding;
  return { headers: answer, notModified, body: loaded.body, path: loaded.path };
}

function siteFile(relativePath: string, loaded: Loaded[], cacheControl: string, headers: SecurityHeaders): SiteFile {
  const type = contentType(basename(relativePath)) || 'application/octet-stream';
  const compressed = loaded.length > 1;
  const variants = new Map(loaded.map((l) => [l.coding, variant(l, type, cacheControl, compressed, headers)]));
  return {
    identity: variants.get('identity')!,
    br: variants.get('br'),
    gzip: variants.get('gzip'),
    compressed,
    inMemory: loaded.every((l) => l.body !== undefined),
  };
}

/**
 * Reads a build folder: each file with the `.br` and `.gz` variants written
 * beside it at build time (a variant older than its file is left out, as a
 * leftover of an earlier build), the smallest files first into memory up to
 * `caps`, every variant with a strong ETag.
 */
export async function loadSite(
  root: string,
  caps: MemoryCaps = DEFAULT_CAPS,
  headers: SecurityHeaders = securityHeaders(),
): Promise<Site> {
  const { files: found, folders } = await walk(root);
  const isVariant = (rel: string) =>
    CODINGS.some(([, suffix]) => rel.endsWith(suffix) && found.has(rel.slice(0, -suffix.length)));
  const sources: Array<{ rel: string; parts: Array<[Coding, Found]>; bytes: number }> = [];
  for (const [rel, own] of found) {
    if (isVariant(rel)) continue;
    const parts: Array<[Coding, Found]> = [['identity', own]];
    for (const [coding, suffix] of CODINGS) {
      const coded = found.get(rel + suffix);
      if (coded && coded.stats.mtimeMs >= own.stats.mtimeMs) parts.push([coding, coded]);
    }
    sources.push({ rel, parts, bytes: parts.reduce((n, [, f]) => n + f.stats.size, 0) });
  }
  sources.sort((a, b) => a.bytes - b.bytes);

  const files = new Map<string, SiteFile>();
  let fallback: SiteFile | undefined;
  let memoryBytes = 0;
  for (const { rel, parts, bytes } of sources) {
    const inMemory = parts.every(([, f]) => f.stats.size <= caps.file) && memoryBytes + bytes <= caps.total;
    if (inMemory) memoryBytes += bytes;
    const loaded = await Promise.all(parts.map(([coding, f]) => load(coding, f, inMemory)));
    const file = siteFile(rel, loaded, cacheClassOf(rel), headers);
    files.set(`/${rel}`, file);
    if (rel === 'index.html' || rel.endsWith('/index.html')) files.set(`/${rel.slice(0, -'index.html'.length)}`, file);
    if (rel === 'index.html') fallback = siteFile(rel, loaded, NO_STORE, headers);
  }
  return { files, fallback, folders, memoryBytes };
}

/** The file a request target names, if the build has it; the query is ignored. */
export function lookup(site: Site, url: string): SiteFile | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('%')) return site.files.get(path);
  try {
    return site.files.get(decodeURIComponent(path));
  } catch {
    return undefined;
  }
}
