import { Type, type Static } from 'typebox';

/**
 * What a local dataset tells /readyz and the metrics about itself:
 * `loaded` is in use and its last update attempt (if any) worked; `stale` is in
 * use but the last attempt to refresh it failed, or it is the copy shipped with
 * the service; `missing` is not loaded, so the routes that read it run degraded.
 */
export const DatasetState = Type.Union([Type.Literal('loaded'), Type.Literal('stale'), Type.Literal('missing')]);
export type DatasetState = Static<typeof DatasetState>;

/**
 * Whose database a dataset holds, for datasets an operator can take from more
 * than one publisher: `provider` is `maxmind`, `dbip` or `other`; `edition`
 * is the type the file names itself (GeoLite2-City, DBIP-City-Lite, …).
 */
export const LoadedDatabase = Type.Object({
  provider: Type.Union([Type.Literal('maxmind'), Type.Literal('dbip'), Type.Literal('other')]),
  edition: Type.String(),
});
export type LoadedDatabase = Static<typeof LoadedDatabase>;

export interface DatasetStatus {
  state: DatasetState;
  /** When the data in use was made (its build, snapshot, publication or fetch time, as each dataset knows it); null when none is loaded. */
  updatedAt: Date | null;
  /** Whose database is in use, where that can vary; absent when none is loaded. */
  database?: LoadedDatabase;
}

/** Seconds from `updatedAt` to `now`, never negative; null without data. */
export function ageSeconds(status: DatasetStatus, now: number): number | null {
  return status.updatedAt === null ? null : Math.max(0, Math.floor((now - status.updatedAt.getTime()) / 1000));
}
