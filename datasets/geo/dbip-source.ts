import { createWriteStream, type Stats } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { byteCap } from '../../lib/byte-cap.js';
import { UpstreamError, type UpstreamResponse } from '../../lib/upstream.js';
import {
  MAX_DATABASE_BYTES,
  type DatabaseSource,
  type Edition,
  type FetchedDatabase,
  type SourceContext,
} from './database-source.js';
import { cappedBody, downloadRequest } from './download-request.js';

/** DB-IP's free "lite" editions, by the names their files carry (also their file names under the geo folder). */
export const DBIP_EDITIONS = { city: 'dbip-city-lite', asn: 'dbip-asn-lite' } as const;

const DOWNLOAD_HOST = 'download.db-ip.com';
// A month not published yet is missing from their storage, which some stores
// answer 403 rather than 404.
const NOT_PUBLISHED = new Set([403, 404]);

interface Release {
  month: string;
  /** The first instant of the month, UTC: what the file's mtime says once downloaded. */
  start: Date;
}

/** The release `back` months before the one `now` falls in. */
function releaseOf(now: Date, back: number): Release {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return { month: start.toISOString().slice(0, 7), start };
}

/**
 * DB-IP Lite: no account, one gzip'd .mmdb per edition and month at
 * `/free/{edition}-{YYYY-MM}.mmdb.gz`. A month's file appears some days into
 * it, so until then the previous month's is the current release. DB-IP
 * publishes no checksum: a download is trusted only once it unpacks whole and
 * opens as the right database.
 */
export class DbipSource implements DatabaseSource {
  readonly provider = 'dbip';
  readonly missingAccess = null;
  readonly refusedHint = null;

  constructor(
    private readonly context: SourceContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  name(edition: Edition): string {
    return DBIP_EDITIONS[edition];
  }

  private url(edition: Edition, release: Release): string {
    return `https://${DOWNLOAD_HOST}/free/${DBIP_EDITIONS[edition]}-${release.month}.mmdb.gz`;
  }

  /** This month's file when it is out, else last month's. */
  private async current(
    edition: Edition,
    method: 'GET' | 'HEAD',
    deadline: number,
  ): Promise<{ res: UpstreamResponse; release: Release }> {
    const now = this.now();
    const request = { upstream: this.context.upstream, method, deadline, signal: this.context.signal };
    const thisMonth = releaseOf(now, 0);
    try {
      return { res: await downloadRequest(this.url(edition, thisMonth), request), release: thisMonth };
    } catch (err) {
      if (!(err instanceof UpstreamError && err.status !== undefined && NOT_PUBLISHED.has(err.status))) throw err;
    }
    const lastMonth = releaseOf(now, 1);
    return { res: await downloadRequest(this.url(edition, lastMonth), request), release: lastMonth };
  }

  async isNewer(edition: Edition, local: Stats, deadline: number): Promise<boolean> {
    const { res, release } = await this.current(edition, 'HEAD', deadline);
    res.body.destroy();
    const newer = release.start.getTime() > local.mtimeMs;
    this.context.log.info(
      { edition: DBIP_EDITIONS[edition], release: release.month, local: local.mtime, newer },
      'geo database update check',
    );
    return newer;
  }

  /** The current release, unpacked as it streams; a truncated or corrupt gzip fails the download. */
  async fetch(edition: Edition, work: string, deadline: number): Promise<FetchedDatabase> {
    const name = DBIP_EDITIONS[edition];
    const { res, release } = await this.current(edition, 'GET', deadline);
    const file = join(work, `${name}.mmdb`);
    await pipeline([
      ...cappedBody(res, `${name}-${release.month}`, this.context),
      createGunzip(),
      byteCap(MAX_DATABASE_BYTES, `${name} database`),
      createWriteStream(file),
    ]);
    return { file, releasedAt: release.start };
  }
}
