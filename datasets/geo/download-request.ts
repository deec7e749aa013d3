import type { Readable, Transform } from 'node:stream';
import { byteCap } from '../../lib/byte-cap.js';
import { announcedBytes, downloadProgress } from '../../lib/download-progress.js';
import { redactUrl } from '../../lib/logger.js';
import { isPublicIp } from '../../lib/network/public-address.js';
import type { Upstream, UpstreamResponse } from '../../lib/upstream.js';
import type { SourceContext } from './database-source.js';
import { UpstreamError } from '../../lib/upstream-failure.js';

const MAX_REDIRECTS = 5;

export interface DownloadRequest {
  upstream: Upstream;
  method: 'GET' | 'HEAD';
  deadline: number;
  signal?: AbortSignal;
  /** Headers for one host only (credentials), so a redirect elsewhere never carries them. */
  privateHeaders?: { host: string; headers: Record<string, string> };
}

/**
 * One request for a database download, answered 200 or thrown as an
 * UpstreamError with the status. Publishers redirect to storage, so redirects
 * are followed, but only over HTTPS to a public host: a redirect's host name
 * must resolve to public addresses only.
 */
export async function downloadRequest(url: string, request: DownloadRequest): Promise<UpstreamResponse> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = new URL(current);
    refuseUnsafeTarget(target);
    // The first URL is the publisher's own, written in the code; where it sends us is not.
    if (hop > 0) await refusePrivateAddresses(target, request);
    const headers = target.host === request.privateHeaders?.host ? request.privateHeaders.headers : {};
    const res = await request.upstream.request(current, {
      method: request.method,
      headers,
      timeoutMs: Math.max(1, request.deadline - Date.now()),
      signal: request.signal,
    });
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && typeof location === 'string') {
      res.body.destroy();
      current = new URL(location, current).toString();
      continue;
    }
    if (res.status !== 200) {
      res.body.destroy();
      throw new UpstreamError(`${request.method} ${redactUrl(url)} answered ${res.status}`, res.status);
    }
    return res;
  }
  throw new UpstreamError(`${redactUrl(url)}: too many redirects`);
}

/**
 * The first stages of a download's body, for a pipeline: refused at once when
 * it announces more than the cap, its progress logged, cut off past the cap.
 */
export function cappedBody(
  res: UpstreamResponse,
  what: string,
  context: SourceContext,
): [Readable, Transform, Transform] {
  const max = context.maxDownloadBytes;
  if (Number(res.headers['content-length']) > max) {
    res.body.destroy();
    throw new UpstreamError(`${what}: the download is over ${max} bytes; refused`);
  }
  return [
    res.body,
    downloadProgress(context.log, what, announcedBytes(res.headers), context.progressEveryMs),
    byteCap(max, `${what} download`),
  ];
}

/**
 * A download (or a redirect it follows) goes only to a public host over
 * HTTPS: never plain HTTP, where the credentials or the file could be read or
 * changed on the way, and never this machine or its network.
 */
function refuseUnsafeTarget(url: URL): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const local = host === 'localhost' || host.endsWith('.localhost') || (/^[\d.]+$|:/.test(host) && !isPublicIp(host));
  if (url.protocol !== 'https:' || local) throw notPublic(url);
}

/**
 * A redirect's host name is resolved, through the resolver the connection
 * itself uses (which then answers it from its cache), and refused when any of
 * its addresses is this machine or a private network: a name is as local as
 * the addresses it stands for.
 */
async function refusePrivateAddresses(url: URL, request: DownloadRequest): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await request.upstream.names.all(host, request.signal);
  if (addresses.some(({ address }) => !isPublicIp(address))) throw notPublic(url);
}

function notPublic(url: URL): UpstreamError {
  return new UpstreamError(
    `refusing to download from ${redactUrl(`${url.protocol}//${url.host}${url.pathname}`)}: only HTTPS to a public host`,
  );
}
