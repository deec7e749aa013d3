import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteCap } from '../../lib/byte-cap.js';
import type { UpstreamResponse } from '../../lib/upstream.js';
import { MAX_DATABASE_BYTES, type Edition, type FetchedDatabase, type SourceContext } from './database-source.js';
import { downloadRequest } from './download-request.js';
import { PublishedSource, type Release } from './published-source.js';
import { UpstreamError } from '../../lib/upstream-failure.js';

/** The two databases, by MaxMind edition id (also their file names under the geo folder). */
export const EDITIONS = { city: 'GeoLite2-City', asn: 'GeoLite2-ASN' } as const;

const DOWNLOAD_HOST = 'download.maxmind.com';
const MAX_CHECKSUM_BYTES = 4096;

/** Whether MaxMind's downloads can be asked for: both halves of an account's credentials are set. */
export function hasMaxmindAccount(accountId: string, licenseKey: string): boolean {
  return Boolean(accountId && licenseKey);
}

/**
 * MaxMind's GeoLite2 downloads: an account's HTTP Basic credentials, a tar.gz
 * per edition with a SHA-256 sum beside it, releases told apart by their
 * Last-Modified.
 */
export class MaxmindSource extends PublishedSource {
  readonly provider = 'maxmind';
  readonly refusedHint = 'check GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY';

  constructor(
    context: SourceContext,
    private readonly accountId: string,
    private readonly licenseKey: string,
  ) {
    super(context, EDITIONS);
  }

  get missingAccess(): string | null {
    return hasMaxmindAccount(this.accountId, this.licenseKey)
      ? null
      : 'set GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY (or GEODB_PROVIDER=dbip, no account) to download them at start';
  }

  private url(edition: Edition, suffix: 'tar.gz' | 'tar.gz.sha256'): string {
    return `https://${DOWNLOAD_HOST}/geoip/databases/${EDITIONS[edition]}/download?suffix=${suffix}`;
  }

  /** The download service answers with a redirect to signed storage; the credentials go to the service's own host only. */
  private request(url: string, method: 'GET' | 'HEAD', deadline: number): Promise<UpstreamResponse> {
    const auth = 'Basic ' + Buffer.from(`${this.accountId}:${this.licenseKey}`).toString('base64');
    return downloadRequest(url, {
      upstream: this.context.upstream,
      method,
      deadline,
      signal: this.context.signal,
      privateHeaders: { host: DOWNLOAD_HOST, headers: { authorization: auth } },
    });
  }

  /** The archive, dated by its Last-Modified. */
  protected async release(edition: Edition, method: 'GET' | 'HEAD', deadline: number): Promise<Release> {
    const res = await this.request(this.url(edition, 'tar.gz'), method, deadline);
    const published = Date.parse(String(res.headers['last-modified'] ?? ''));
    return { res, publishedAt: Number.isNaN(published) ? null : new Date(published), label: EDITIONS[edition] };
  }

  /** The checksum, then the archive streamed to `work` while hashed, then the one database it holds extracted. */
  async fetch(edition: Edition, work: string, deadline: number): Promise<FetchedDatabase> {
    const name = EDITIONS[edition];
    const sumRes = await this.request(this.url(edition, 'tar.gz.sha256'), 'GET', deadline);
    const expected = /^\s*([a-f0-9]{64})\b/i.exec(await readText(sumRes, MAX_CHECKSUM_BYTES))?.[1]?.toLowerCase();
    if (!expected) throw new Error(`${name}: checksum file is not a SHA-256 sum`);

    const archive = join(work, `${name}.tar.gz`);
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const { publishedAt } = await this.download(edition, archive, deadline, [hashing]);
    const actual = hash.digest('hex');
    if (actual !== expected) throw new Error(`${name}: checksum mismatch (expected ${expected}, got ${actual})`);

    let oversized = false;
    // Imported here: most starts download nothing.
    const tar = await import('tar');
    await tar.x({
      file: archive,
      cwd: work,
      strict: true,
      filter: (path, entry) => {
        if (basename(path) !== `${name}.mmdb`) return false;
        oversized ||= ('size' in entry ? entry.size : 0) > MAX_DATABASE_BYTES;
        return !oversized;
      },
    });
    if (oversized) {
      throw new UpstreamError(`${name}: the database in the archive is over ${MAX_DATABASE_BYTES} bytes; refused`);
    }
    const entries = (await readdir(work, { recursive: true })) as string[];
    const found = entries.find((entry) => basename(entry) === `${name}.mmdb`);
    if (!found) throw new Error(`${name}: archive holds no ${name}.mmdb`);
    return { file: join(work, found), releasedAt: publishedAt };
  }
}

async function readText(res: UpstreamResponse, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  await pipeline(res.body, byteCap(maxBytes, 'the checksum file'), async function* (source) {
    for await (const chunk of source) chunks.push(chunk as Buffer);
  });
  return Buffer.concat(chunks).toString('utf8');
}
