import type { IncomingMessage } from 'node:http';

export type Received = { ok: true; bytes: number } | { ok: false; reason: 'too-large' | 'over-budget' | 'aborted' };

/**
 * Reads an upload's body to its end and keeps only its length: no chunk is
 * held past its own 'data' event, and nothing goes to disk. Past `cap` bytes
 * it stops reading and answers 'too-large' at once. A body charged as it
 * arrives (one without a length, whose cost is unknown when it starts) passes
 * each chunk's size to `charge`; the first chunk it refuses stops the reading
 * the same way, as 'over-budget'.
 */
export function countUpload(req: IncomingMessage, cap: number, charge?: (bytes: number) => boolean): Promise<Received> {
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (result: Received) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      resolve(result);
    };
    const stop = (reason: 'too-large' | 'over-budget') => {
      req.pause();
      finish({ ok: false, reason });
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > cap) stop('too-large');
      else if (charge !== undefined && !charge(chunk.length)) stop('over-budget');
    };
    const onEnd = () => finish({ ok: true, bytes });
    const onClose = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
  });
}
