import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { byteCap } from '../../lib/byte-cap.js';
import { UpstreamError } from '../../lib/upstream-failure.js';
import { MAX_DATABASE_BYTES, type Edition, type FetchedDatabase, type SourceContext } from './database-source.js';
import { downloadRequest } from './download-request.js';
import { PublishedSource, type Release } from './published-source.js';

/** DB-IP's free "lite" editions, by the names their files carry (also their file names under the geo folder). */
export const DBIP_EDITIONS = { city: 'dbip-city-lite', asn: 'dbip-asn-lite' } as const;

const DOWNLOAD_HOST = 'download.db-ip.com';
// A month not published yet is missing from their storage, which some stores
// answer 403 rather than 404.
const NOT_PUBLISHED = new Set([403, 404]);

/** The first instant of the month `back` months before the one `now` falls in, UTC. */
function monthStart(now: Date, back: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
}

/**
 * DB-IP Lite: no account, one gzip'd .mmdb per edition and month at
 * `/free/{edition}-{YYYY-MM}.mmdb.gz`. A month's file appears some days into
 * it, so until then the previous month's is the current release. DB-IP
 * publishes no checksum: a download is trusted only once it unpacks whole and
 * opens as the right database.
 */
export class DbipSource extends PublishedSource {
  readonly provider = 'dbip';
  readonly missingAccess = null;
  readonly refusedHint = null;

  constructor(
    context: SourceContext,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(context, DBIP_EDITIONS);
  }

  /** This month's file when it is out, else last month's; its month's first instant is its date. */
  protected async release(edition: Edition, method: 'GET' | 'HEAD', deadline: number): Promise<Release> {
    const now = this.now();
    const request = { upstream: this.context.upstream, method, deadline, signal: this.context.signal };
    const ask = async (start: Date): Promise<Release> => {
      const label = `${DBIP_EDITIONS[edition]}-${start.toISOString().slice(0, 7)}`;
      const res = await downloadRequest(`https://${DOWNLOAD_HOST}/free/${label}.mmdb.gz`, request);
      return { res, publishedAt: start, label };
    };
    try {
      return await ask(monthStart(now, 0));
    } catch (err) {
      if (!(err instanceof UpstreamError && err.status !== undefined && NOT_PUBLISHED.has(err.status))) throw err;
    }
    return ask(monthStart(now, 1));
  }

  /** The current release, unpacked as it streams; a truncated or corrupt gzip fails the download. */
  async fetch(edition: Edition, work: string, deadline: number): Promise<FetchedDatabase> {
    const name = DBIP_EDITIONS[edition];
    const file = join(work, `${name}.mmdb`);
    const { publishedAt } = await this.download(edition, file, deadline, [
      createGunzip(),
      byteCap(MAX_DATABASE_BYTES, `${name} database`),
    ]);
    return { file, releasedAt: publishedAt };
  }
}
