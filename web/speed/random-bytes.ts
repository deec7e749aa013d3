import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

const BLOCK_BYTES = 1 << 20;
// Made once per process, at the first download (a megabyte an idle service
// need not hold), and sent over and over: random bytes do not compress, so no
// proxy or browser can shrink a download and flatter the figure, and no
// request reads the disk or draws from the random source.
let block: Buffer | undefined;

/**
 * Writes `total` bytes of the block to `res` as fast as the socket drains them,
 * then ends it; stops early when the client goes away. One slice is in
 * flight at a time, so memory stays at one block whatever `total` is and however
 * many clients download at once.
 */
export function sendRandomBytes(res: ServerResponse, total: number): void {
  const bytes = (block ??= randomBytes(BLOCK_BYTES));
  let left = total;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const size = Math.min(left, bytes.length);
      left -= size;
      if (!res.write(size === bytes.length ? bytes : bytes.subarray(0, size))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.once('close', () => res.removeListener('drain', pump));
  pump();
}
