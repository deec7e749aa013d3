import { Transform } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';

/** The spec-free choice for a long download: one progress line at most every 5 seconds. */
const PROGRESS_EVERY_MS = 5000;

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * A pass-through for a download's body that logs how much has arrived, at
 * most once per `everyMs` (none for a download shorter than that), with the
 * share of `totalBytes` when the upstream said how large it is (see announcedBytes).
 */
export function downloadProgress(
  log: Pick<FastifyBaseLogger, 'info'>,
  what: string,
  totalBytes: number | undefined,
  everyMs = PROGRESS_EVERY_MS,
): Transform {
  let received = 0;
  let lastLine = Date.now();
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      const now = Date.now();
      if (now - lastLine >= everyMs) {
        lastLine = now;
        const percent = totalBytes === undefined ? undefined : Math.min(100, Math.floor((received / totalBytes) * 100));
        const share =
          totalBytes === undefined
            ? `${megabytes(received)} so far`
            : `${megabytes(received)} of ${megabytes(totalBytes)} (${percent}%)`;
        log.info(
          { download: what, bytes: received, totalBytes: totalBytes ?? null, percent: percent ?? null },
          `downloading ${what}: ${share}`,
        );
      }
      done(null, chunk);
    },
  });
}

/** The body size an answer announces, if any. */
export function announcedBytes(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = Number(headers['content-length']);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
