import type { ConfigOptions, MeasurementType, Results } from '@cloudflare/speedtest';
import { figuresOf, scoresOf, type Figures, type Scores } from './figures.js';
import { ENDPOINTS, measurementPlan, type Target } from './plan.js';

/** The part of @cloudflare/speedtest's engine a run uses (a fake one in the unit tests). */
export interface Engine {
  readonly results: Results;
  play(): void;
  pause(): void;
  onResultsChange: (change: { type: MeasurementType }) => void;
  onFinish: (results: Results) => void;
  onError: (message: string, status?: number) => void;
}

export type EngineFactory = (config: ConfigOptions) => Engine;

export type Phase = 'latency' | 'download' | 'upload';

export type Failure =
  /** Nothing came back for STALL_MS: a request hangs. */
  | { kind: 'timeout' }
  /** The endpoint answered an error status (429 after the engine's own retries). */
  | { kind: 'http'; status: number }
  /** A request failed without an answer: refused, reset, blocked, not resolved. */
  | { kind: 'network' }
  /** The run ended without a single speed measured. */
  | { kind: 'empty' };

export interface RunEvents {
  progress(phase: Phase, figures: Figures): void;
  finished(figures: Figures, scores: Scores): void;
  failed(failure: Failure, figures: Figures): void;
}

/** How long a run may go without any measurement finishing before it is called stuck. */
export const STALL_MS = 30_000;

/**
 * One speed test run against `target`: latency, then download and upload
 * ramping up to the sizes given, reported as it goes. The engine neither
 * times out a request that hangs nor says when one does, so a run with no
 * measurement finishing for STALL_MS is stopped as a timeout.
 * `stop()` ends it without an event.
 */
export function startRun(
  createEngine: EngineFactory,
  target: Target,
  sizes: { down: number; up: number },
  events: RunEvents,
  stallMs = STALL_MS,
): { stop(): void } {
  const engine = createEngine({
    autoStart: false,
    downloadApiUrl: ENDPOINTS[target].down,
    uploadApiUrl: ENDPOINTS[target].up,
    // The summary Cloudflare's own page posts to its collector stays unsent: the
    // visitor asked for a measurement, not to be counted in someone's statistics.
    logMeasurementApiUrl: null,
    logAimApiUrl: null,
    measurements: measurementPlan(sizes.down, sizes.up),
  });
  let over = false;
  let stall: ReturnType<typeof setTimeout> | undefined;
  const end = () => {
    over = true;
    clearTimeout(stall);
    engine.pause();
  };
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(() => {
      end();
      events.failed({ kind: 'timeout' }, figuresOf(engine.results));
    }, stallMs);
  };

  engine.onResultsChange = ({ type }) => {
    if (over) return;
    watch();
    if (type === 'latency' || type === 'download' || type === 'upload') {
      events.progress(type, figuresOf(engine.results));
    }
  };
  engine.onFinish = (results) => {
    if (over) return;
    end();
    const figures = figuresOf(results);
    if (!figures.downloadMbps && !figures.uploadMbps) events.failed({ kind: 'empty' }, figures);
    else events.finished(figures, scoresOf(results));
  };
  engine.onError = (_message, status) => {
    if (over) return;
    end();
    events.failed(status ? { kind: 'http', status } : { kind: 'network' }, figuresOf(engine.results));
  };
  watch();
  engine.play();
  return { stop: () => void (over || end()) };
}
