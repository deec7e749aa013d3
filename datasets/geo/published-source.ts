import { createWriteStream, type Stats } from 'node:fs';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UpstreamResponse } from '../../lib/upstream.js';
import type { DatabaseSource, Edition, FetchedDatabase, GeoProvider, SourceContext } from './database-source.js';
import { cappedBody } from './download-request.js';

/** An edition's current release as the publisher answered for it, its body not read yet. */
export interface Release {
  res: UpstreamResponse;
  /** When it was published; null when the publisher did not say. */
  publishedAt: Date | null;
  /** What the download's progress lines and errors call it. */
  label: string;
}

/**
 * The life cycle every publisher's downloads share: an update check that
 * compares the release's date with the local file's, and a download that
 * streams the capped body through the publisher's own stages into a file.
 * A publisher says only where its current release is and how it is checked.
 */
export abstract class PublishedSource implements DatabaseSource {
  abstract readonly provider: GeoProvider;
  abstract readonly missingAccess: string | null;
  abstract readonly refusedHint: string | null;

  constructor(
    protected readonly context: SourceContext,
    private readonly editions: Readonly<Record<Edition, string>>,
  ) {}

  name(edition: Edition): string {
    return this.editions[edition];
  }

  /** The edition's current release, asked for with `method`. */
  protected abstract release(edition: Edition, method: 'GET' | 'HEAD', deadline: number): Promise<Release>;

  abstract fetch(edition: Edition, work: string, deadline: number): Promise<FetchedDatabase>;

  async isNewer(edition: Edition, local: Stats, deadline: number): Promise<boolean> {
    const { res, publishedAt } = await this.release(edition, 'HEAD', deadline);
    res.body.destroy();
    const log = this.context.log;
    if (!publishedAt) {
      log.warn({ edition: this.name(edition) }, 'geo database upstream sent no Last-Modified; not downloading');
      return false;
    }
    // File times keep whole seconds from HTTP dates; anything newer by a second or more is a new copy.
    const newer = publishedAt.getTime() - local.mtimeMs >= 1000;
    log.info(
      { edition: this.name(edition), published: publishedAt, local: local.mtime, newer },
      'geo database update check',
    );
    return newer;
  }

  /** The current release's body, capped and its progress logged, through `stages` into `file`. */
  protected async download(edition: Edition, file: string, deadline: number, stages: Transform[]): Promise<Release> {
    const release = await this.release(edition, 'GET', deadline);
    await pipeline([...cappedBody(release.res, release.label, this.context), ...stages, createWriteStream(file)]);
    return release;
  }
}
