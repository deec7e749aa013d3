import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// LevelDB's log format (doc/log_format.md in its source): 32 KiB blocks of
// records, each a 7-byte header (checksum 4 bytes, length 2, type 1) and its
// data; a write batch longer than a block's room is split FIRST, MIDDLE…, LAST.
const BLOCK = 32 * 1024;
const HEADER = 7;
const ZERO = 0;
const FULL = 1;
const FIRST = 2;
const LAST = 4;
// A write batch: sequence number (8 bytes), count (4), then each operation: its tag, the key's varint length, the key.
const BATCH_HEADER = 12;
const PUT = 1;
const REPORT_PREFIX = 'report:';

/** Where a log file stops holding whole write batches, and what is known of the one cut there. */
export interface LogDamage {
  /** The log file's name in the store's folder. */
  file: string;
  /** Its size, and the byte at which the damaged or cut-off batch starts: nothing from there on is read back. */
  size: number;
  at: number;
  /** Reports written to this file before that byte: kept. */
  reportsKept: number;
  /** The report whose write starts there, when enough of it survives to name it. */
  firstLostReport?: string;
}

/**
 * The damage in the store's log files, read before LevelDB opens them: on
 * opening it keeps what precedes a cut-off or malformed record and drops the
 * rest without a word (a log that ends inside a record reads to it as a
 * writer that died mid-write), then rewrites the log into a table, after
 * which nothing shows that anything was lost. So the files are checked here
 * first. Checksums are LevelDB's own to verify; this looks at the records'
 * framing, which is what a file cut short or overwritten breaks.
 */
export async function findLogDamage(dir: string): Promise<LogDamage[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
  } catch {
    return []; // a new store: nothing written yet
  }
  const damaged: LogDamage[] = [];
  for (const file of names) {
    const found = checkLog(await readFile(join(dir, file)));
    if (found) damaged.push({ file, ...found });
  }
  return damaged;
}

/** The first break in a log's framing, or undefined when every batch in it is whole. */
export function checkLog(log: Buffer): Omit<LogDamage, 'file'> | undefined {
  let offset = 0;
  let reportsKept = 0;
  // The batch being assembled from fragments, and where its first fragment starts.
  let fragments: Buffer[] | undefined;
  let batchStart = 0;
  const broken = (at: number, firstData?: Buffer) => ({
    size: log.length,
    at,
    reportsKept,
    ...(firstData && { firstLostReport: reportWritten(firstData) }),
  });
  while (offset < log.length) {
    const room = BLOCK - (offset % BLOCK);
    if (room < HEADER) {
      // The writer pads a block's tail too short for a header, then goes on in the next block.
      if (offset + room > log.length) return broken(fragments ? batchStart : offset, fragments?.[0]);
      offset += room;
      continue;
    }
    if (log.length - offset < HEADER) return broken(fragments ? batchStart : offset, fragments?.[0]);
    const length = log.readUInt16LE(offset + 4);
    const type = log[offset + 6];
    if (type === ZERO && length === 0) {
      // A preallocated, never written stretch: LevelDB skips the rest of the block.
      offset += room;
      continue;
    }
    const data = log.subarray(offset + HEADER, offset + HEADER + length);
    if (HEADER + length > room || offset + HEADER + length > log.length) {
      return broken(
        fragments ? batchStart : offset,
        fragments?.[0] ?? (type === FULL || type === FIRST ? data : undefined),
      );
    }
    const starts = type === FULL || type === FIRST;
    if (starts === (fragments !== undefined)) return broken(fragments ? batchStart : offset, fragments?.[0] ?? data);
    if (type === FIRST) {
      fragments = [data];
      batchStart = offset;
    } else if (type === FULL || type === LAST) {
      const batch = type === FULL ? data : Buffer.concat([...fragments!, data]);
      if (reportWritten(batch) !== undefined) reportsKept++;
      fragments = undefined;
    } else {
      fragments!.push(data);
    }
    offset += HEADER + length;
  }
  return fragments ? broken(batchStart, fragments[0]) : undefined;
}

/** The report id a batch's first operation puts, when it is a report's write (not a sweep's removals). */
function reportWritten(batch: Buffer): string | undefined {
  if (batch.length < BATCH_HEADER + 2 || batch[BATCH_HEADER] !== PUT) return undefined;
  let keyLength = 0;
  let at = BATCH_HEADER + 1;
  for (let shift = 0; at < batch.length && shift < 35; shift += 7) {
    const byte = batch[at++]!;
    keyLength |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  if (at + keyLength > batch.length) return undefined;
  const key = batch.subarray(at, at + keyLength).toString('latin1');
  return key.startsWith(REPORT_PREFIX) ? key.slice(REPORT_PREFIX.length) : undefined;
}
