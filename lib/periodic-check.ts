import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';

export interface PeriodicCheckOptions {
  /** The scheduler's task and job id, for its own error messages. */
  id: string;
  /** One check; a rejection goes to `onError`. */
  run: () => Promise<unknown>;
  /** When the first check runs after start(); 0 runs it at once. */
  firstAfterMs: number;
  everyMs: number;
  onError: (err: Error) => void;
}

/** The spec's auto-update timing for downloaded datasets: first check 60 s after start, then every 24 h. */
export const AUTO_UPDATE = { firstAfterMs: 60 * 1000, everyMs: 24 * 60 * 60 * 1000 } as const;

/**
 * A scheduled check (a dataset update, a status refresh): the first one
 * `firstAfterMs` after start(), then one every `everyMs` counted from it,
 * until stop(). A check still running when the next is due is not started again.
 */
export class PeriodicCheck {
  private firstRun: NodeJS.Timeout | undefined;
  private scheduler: ToadScheduler | undefined;

  constructor(private readonly options: PeriodicCheckOptions) {}

  /** Starts the schedule; a second call while it runs does nothing. */
  start(): void {
    if (this.scheduler) return;
    const scheduler = new ToadScheduler();
    this.scheduler = scheduler;
    const { id, run, firstAfterMs, everyMs, onError } = this.options;
    const task = new AsyncTask(id, run, onError);
    const schedule = (runImmediately: boolean) =>
      scheduler.addSimpleIntervalJob(
        new SimpleIntervalJob({ milliseconds: everyMs, runImmediately }, task, { id, preventOverrun: true }),
      );
    // At 0 or one whole period the interval job alone gives the first check; otherwise a timer waits for it.
    if (firstAfterMs === 0 || firstAfterMs === everyMs) {
      schedule(firstAfterMs === 0);
      return;
    }
    this.firstRun = setTimeout(() => {
      this.firstRun = undefined;
      schedule(true);
    }, firstAfterMs);
  }

  stop(): void {
    clearTimeout(this.firstRun);
    this.firstRun = undefined;
    this.scheduler?.stop();
    this.scheduler = undefined;
  }
}
