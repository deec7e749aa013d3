import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compressible from 'compressible';
import { lookup } from 'mime-types';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const VARIANTS = [
  {
    suffix: '.br',
    compress: (bytes: Buffer) =>
      brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  },
  { suffix: '.gz', compress: (bytes: Buffer) => gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }) },
];

export interface CompressionSummary {
  /** Files given at least one variant. */
  compressed: number;
  /** Bytes of those files, and of their brotli and gzip variants. */
  bytes: number;
  brBytes: number;
  gzBytes: number;
}

/** Whether a file's type gains from compression (text, SVG, JSON…; not PNG, WOFF2, or a variant itself). */
function worthCompressing(name: string): boolean {
  if (name.endsWith('.br') || name.endsWith('.gz')) return false;
  const type = lookup(name);
  return type !== false && compressible(type) === true;
}

async function files(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `<file>.br` (brotli at its highest quality) and `<file>.gz` (gzip
 * level 9) beside every compressible file under `folder`, for the front
 * listener to send by Accept-Encoding. A variant that would not be smaller
 * than its file is not written, and one left by an earlier run is removed.
 */
export async function compressFolder(folder: string): Promise<CompressionSummary> {
  const summary: CompressionSummary = { compressed: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
  for (const path of await files(folder)) {
    if (!worthCompressing(path)) continue;
    const bytes = await readFile(path);
    const [br, gz] = await Promise.all(
      VARIANTS.map(async ({ suffix, compress }) => {
        const variant = await compress(bytes);
        if (variant.length < bytes.length) await writeFile(path + suffix, variant);
        else await rm(path + suffix, { force: true });
        return variant.length < bytes.length ? variant.length : 0;
      }),
    );
    if (!br && !gz) continue;
    summary.compressed++;
    summary.bytes += bytes.length;
    summary.brBytes += br ?? 0;
    summary.gzBytes += gz ?? 0;
  }
  return summary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: npm run compress -- <folder>\n');
    process.exit(2);
  }
  try {
    const s = await compressFolder(resolve(folder));
    process.stdout.write(
      `compress: ${s.compressed} files in ${folder}, ${s.bytes} bytes; brotli variants ${s.brBytes}, gzip variants ${s.gzBytes}\n`,
    );
  } catch (err) {
    process.stderr.write(`compress: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
