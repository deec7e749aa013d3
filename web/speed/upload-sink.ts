import type { IncomingMessage } from 'node:http';

export type Received = { ok: true; bytes: number } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads an upload's body to its end and keeps only its length: no chunk is
 * held past its own 'data' event, and nothing goes to disk. Past `cap` bytes
 * it stops reading and answers 'too-large' at once.
 */
export function countUpload(req: IncomingMessage, cap: number): Promise<Received> {
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (result: Received) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > cap) {
        req.pause();
        finish({ ok: false, reason: 'too-large' });
      }
    };
    const onEnd = () => finish({ ok: true, bytes });
    const onClose = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
  });
}
