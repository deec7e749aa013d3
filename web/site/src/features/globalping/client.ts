import { readCreated, readMeasurement, readRefusal, type Measurement } from './measurement.js';

/**
 * Why a measurement gave nothing to show: Globalping could not be reached to
 * start it (`unreachable`: no connection, or no answer in time), answered the
 * start with its own error or with no measurement (`unusable`), refused it
 * (`create`, a 4xx: a bad target, no probes in those countries), refused it for
 * the visitor's hourly budget (`rateLimited`, 429), its progress could not be
 * read (`poll`), it ended without a usable result (`empty`), or it was still
 * running when the page stopped asking (`timeout`). Only a 4xx is a refusal:
 * the page must not blame the target or the countries for a network it never reached.
 */
export type FailureKind = 'unreachable' | 'unusable' | 'create' | 'rateLimited' | 'poll' | 'empty' | 'timeout';

export class GlobalpingFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    /** Globalping's own words, when it sent some (untrusted text). */
    readonly detail = '',
  ) {
    super(detail || kind);
  }
}

/** How often the page asks for progress, and how many times more after the first. */
export interface Schedule {
  pollMs: number;
  retries: number;
}

export const PING_SCHEDULE: Schedule = { pollMs: 1000, retries: 4 };
export const MTR_SCHEDULE: Schedule = { pollMs: 1000, retries: 4 };
// An HTTP test from far probes takes longer; Globalping ends any measurement after 30 s.
export const HTTP_SCHEDULE: Schedule = { pollMs: 3000, retries: 5 };

/** A request to Globalping that takes longer than this has failed. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Time, replaceable in unit tests. */
export interface Clock {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  timeout(ms: number): AbortSignal;
}

const realClock: Clock = {
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
  timeout: (ms) => AbortSignal.timeout(ms),
};

export interface RunOptions<Row> {
  /** GLOBALPING_API_BASE, from the site settings. */
  base: string;
  body: object;
  schedule: Schedule;
  /** The rows worth showing in an answer; `final` once no more answers will come. */
  select: (measurement: Measurement, final: boolean) => Row[];
  /** Each answer's rows, to show progress. */
  onRows?: (rows: Row[]) => void;
  /** Aborted when the visitor leaves or starts again: the run stops and rejects with the abort's reason. */
  signal: AbortSignal;
  fetch?: typeof fetch;
  clock?: Clock;
}

async function request(
  options: RunOptions<unknown>,
  path: string,
  init: RequestInit,
  failure: FailureKind,
): Promise<{ status: number; body: unknown }> {
  const { signal, clock = realClock, fetch: fetchFn = fetch } = options;
  try {
    const response = await fetchFn(`${options.base}${path}`, {
      ...init,
      signal: AbortSignal.any([signal, clock.timeout(REQUEST_TIMEOUT_MS)]),
    });
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw new GlobalpingFailure(failure);
  }
}

/**
 * Runs one measurement from the browser, as Globalping asks of an anonymous
 * client: POST it, then after `pollMs` GET its progress, again while it is in
 * progress and retries remain. Resolves with the final rows; rejects with a
 * GlobalpingFailure, or with the abort's reason once `signal` aborts.
 */
export async function runMeasurement<Row>(options: RunOptions<Row>): Promise<Row[]> {
  const { schedule, select, onRows, signal, clock = realClock } = options;
  const created = await request(
    options as RunOptions<unknown>,
    '/v1/measurements',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(options.body) },
    'unreachable',
  );
  if (created.status === 429) throw new GlobalpingFailure('rateLimited');
  if (created.status >= 400 && created.status < 500) {
    throw new GlobalpingFailure('create', readRefusal(created.body));
  }
  const id = created.status >= 200 && created.status < 300 ? readCreated(created.body) : null;
  if (!id) throw new GlobalpingFailure('unusable', readRefusal(created.body));

  let measurement: Measurement | null = null;
  for (let attempt = 0; attempt <= schedule.retries; attempt++) {
    await clock.sleep(schedule.pollMs, signal);
    const answer = await request(options as RunOptions<unknown>, `/v1/measurements/${id}`, { method: 'GET' }, 'poll');
    measurement = answer.status === 200 ? readMeasurement(answer.body) : null;
    if (!measurement) throw new GlobalpingFailure('poll');
    onRows?.(select(measurement, false));
    if (measurement.status !== 'in-progress') break;
  }
  const rows = measurement ? select(measurement, true) : [];
  onRows?.(rows);
  if (!rows.length) throw new GlobalpingFailure(measurement?.status === 'in-progress' ? 'timeout' : 'empty');
  return rows;
}
