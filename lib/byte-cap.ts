import { Transform } from 'node:stream';
import { UpstreamError } from './upstream-failure.js';

/**
 * A pass-through stream that fails once more than `max` bytes went through,
 * so a download (or what it decompresses to) cannot fill the disk or memory.
 */
export function byteCap(max: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) return done(new UpstreamError(`${what} is over ${max} bytes; refused`));
      done(null, chunk);
    },
  });
}
