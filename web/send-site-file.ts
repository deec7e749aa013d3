import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import fresh from 'fresh';
import { acceptedCodings } from './content-encoding.js';
import type { SiteFile, Variant } from './site-files.js';

/** The variant Accept-Encoding asks for: the best accepted coding the file has, else the file itself. */
export function chooseVariant(file: SiteFile, acceptEncoding: string | undefined): Variant {
  if (!file.compressed || !acceptEncoding) return file.identity;
  for (const coding of acceptedCodings(acceptEncoding)) {
    const variant = file[coding];
    if (variant) return variant;
  }
  return file.identity;
}

/**
 * Answers a GET or HEAD for `file` on the raw response: 304 when
 * If-None-Match holds the chosen variant's ETag, else the variant's bytes
 * from memory or streamed from disk (`onStreamError` hears a file that went
 * missing mid-answer; the connection is then closed, as the length was sent;
 * a file held in memory cannot fail).
 */
export function sendSiteFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: SiteFile,
  onStreamError?: (err: Error) => void,
): void {
  const variant = chooseVariant(file, req.headers['accept-encoding']);
  if (req.headers['if-none-match'] !== undefined && fresh(req.headers, variant.headers)) {
    res.writeHead(304, variant.notModified);
    res.end();
    return;
  }
  res.writeHead(200, variant.headers);
  if (req.method === 'HEAD') res.end();
  else if (variant.body) res.end(variant.body);
  else {
    pipeline(createReadStream(variant.path), res, (err) => {
      if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') onStreamError?.(err);
    });
  }
}
