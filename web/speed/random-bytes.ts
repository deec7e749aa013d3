import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// Made once per process and sent over and over: random bytes do not compress,
// so no proxy or browser can shrink a download and flatter the figure, and no
// request reads the disk or draws from the random source.
const BLOCK = randomBytes(1 << 20);

/**
 * Writes `total` bytes of BLOCK to `res` as fast as the socket drains them,
 * then ends it; stops early when the client goes away. One slice is in
 * flight at a time, so memory stays at BLOCK whatever `total` is and however
 * many clients download at once.
 */
export function sendRandomBytes(res: ServerResponse, total: number): void {
  let left = total;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const size = Math.min(left, BLOCK.length);
      left -= size;
      if (!res.write(size === BLOCK.length ? BLOCK : BLOCK.subarray(0, size))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.once('close', () => res.removeListener('drain', pump));
  pump();
}
