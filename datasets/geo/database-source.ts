import type { Stats } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Upstream } from '../../lib/upstream.js';

/** Who publishes the local databases: GEODB_PROVIDER. */
export type GeoProvider = 'maxmind' | 'dbip';

export type Edition = 'city' | 'asn';
export const EDITION_KEYS: readonly Edition[] = ['city', 'asn'];

// GeoLite2-City is about 60 MB unpacked, DB-IP's city file about 130 MB. Far
// past those, a download is refused.
export const MAX_DATABASE_BYTES = 512 * 1024 * 1024;

/** What a source needs from the databases it serves. */
export interface SourceContext {
  upstream: Upstream;
  log: FastifyBaseLogger;
  /** The most bytes a download may have on the wire. */
  maxDownloadBytes: number;
  signal?: AbortSignal;
  progressEveryMs?: number;
}

/** A database fetched into a work folder, not yet checked or in use. */
export interface FetchedDatabase {
  file: string;
  /** When the release was published; the file keeps it as its mtime, which update checks compare against. */
  releasedAt: Date | null;
}

/** One publisher's downloads: where each edition comes from and how its releases are told apart. */
export interface DatabaseSource {
  readonly provider: GeoProvider;
  /** The edition's name: its file in the geo folder is `{name}.mmdb`, and logs call it so. */
  name(edition: Edition): string;
  /** What would let it download at all, when it cannot (no account); null when it can. */
  readonly missingAccess: string | null;
  /** What to check when the publisher refuses a download (401/403); null when a refusal means nothing to fix here. */
  readonly refusedHint: string | null;
  /** Whether the publisher holds a release newer than the local file. */
  isNewer(edition: Edition, local: Stats, deadline: number): Promise<boolean>;
  /** Downloads the edition's current release into `work`, verified as far as the publisher allows. */
  fetch(edition: Edition, work: string, deadline: number): Promise<FetchedDatabase>;
}
