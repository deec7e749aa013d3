import { UpstreamFailure } from '../../lib/upstream-failure.js';

/** What is kept under a report id: when it stops being readable, and the report. */
export interface StoredReport {
  expiresAt: string;
  report: unknown;
}

/**
 * Where shared reports live (REPORT_STORE): chosen once at start-up, the
 * same for the report routes and /api/configs' `reportSharing`.
 */
export interface ReportStore {
  /** Whether the store can take new reports now, as far as the service knows: `reportSharing`. */
  readonly ready: boolean;
  /** Whether it can give back stored reports now: a store that cannot write may still read. */
  readonly readable: boolean;
  /** While not ready, what a new report is answered when the store says why itself; otherwise 500 STORE_UNAVAILABLE. */
  readonly refusal?: StoreRefusal | undefined;
  /** What the operator's /readyz adds beside `ready`, for a store with more to say (the local one). */
  readonly details?: StoreDetails;
  /** Writes `stored` under `id` for `ttlSeconds`; resolves only once the store confirmed the write. */
  put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void>;
  /** The report stored under `id`, or undefined when it is unknown or has expired. */
  get(id: string): Promise<StoredReport | undefined>;
  /** Removes what is stored under `id` (nothing when it is unknown); resolves once the store confirmed it. */
  delete(id: string): Promise<void>;
}

/** The answer, with 500, when the store did not take or give back a report. */
export const STORE_UNAVAILABLE = 'Report store unavailable';

/** The answer, with 507, while the local store's disk has no room for a new report. */
export const STORE_FULL = 'Report store is full: the server is out of disk space';

/** A store's own account of itself for /readyz: whether it reads, and in plain words what is wrong or was repaired. */
export interface StoreDetails {
  readable: boolean;
  /** Why the store does not take new reports (or give back stored ones) now; absent while it works. */
  problem?: string;
  /** What the repair at start-up found damaged and lost; absent when nothing was. */
  repaired?: string;
}

/**
 * The store refuses new reports for a reason it has logged once already (a
 * full disk): answered with its status and reason, and not logged again per
 * request, so an outage is one line however many visitors meet it.
 */
export class StoreRefusal extends Error {
  constructor(
    readonly statusCode: 500 | 507,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The store did not take or give back a report: answered 500. Its outage is
 * one the service expects, so it is logged as any upstream's failure: one
 * warning with its reason, no stack (plugins/failure-log.ts).
 */
export class StoreError extends UpstreamFailure {
  constructor(cause: unknown) {
    super({ status: 500, error: STORE_UNAVAILABLE }, 'report store failed', { err: cause });
  }
}

/** A stored value's expiry has passed (or it has none): it is answered as unknown. */
export function isExpired(stored: StoredReport, now: number): boolean {
  const expires = Date.parse(stored?.expiresAt);
  return !Number.isFinite(expires) || expires <= now;
}

/** A stored value read back as text; one that is not JSON is the store's failure, not the visitor's. */
export function parseStored(text: string): StoredReport {
  try {
    return JSON.parse(text) as StoredReport;
  } catch {
    throw new StoreError(new Error('Report store holds a value that is not JSON'));
  }
}
