import { Type, type Static } from 'typebox';

/**
 * What a local dataset tells /readyz and the metrics about itself:
 * `loaded` is in use and its last update attempt (if any) worked; `stale` is in
 * use but the last attempt to refresh it failed, or it is the copy shipped with
 * the service; `missing` is not loaded, so the routes that read it run degraded.
 */
export const DatasetState = Type.Union([Type.Literal('loaded'), Type.Literal('stale'), Type.Literal('missing')]);
export type DatasetState = Static<typeof DatasetState>;

export interface DatasetStatus {
  state: DatasetState;
  /** When the data in use was made (its build, snapshot, publication or fetch time, as each dataset knows it); null when none is loaded. */
  updatedAt: Date | null;
}

/** Seconds from `updatedAt` to `now`, never negative; null without data. */
export function ageSeconds(status: DatasetStatus, now: number): number | null {
  return status.updatedAt === null ? null : Math.max(0, Math.floor((now - status.updatedAt.getTime()) / 1000));
}
