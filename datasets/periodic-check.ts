import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';

export interface PeriodicCheckOptions {
  /** The scheduler's task and job id, for its own error messages. */
  id: string;
  /** One check; a rejection goes to `onError`. */
  run: () => Promise<unknown>;
  /** When the first check runs after start(); 0 runs it at once. */
  firstAfterMs: number;
  everyHours: number;
  onError: (err: Error) => void;
}

/** The spec's auto-update timing for downloaded datasets: first check 60 s after start, then every 24 h. */
export const AUTO_UPDATE = { firstAfterMs: 60 * 1000, everyHours: 24 } as const;

/**
 * A dataset's scheduled check: the first one `firstAfterMs` after start(),
 * then one every `everyHours` hours counted from it, until stop(). A check
 * still running when the next is due is not started again.
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
    const { id, run, firstAfterMs, everyHours, onError } = this.options;
    const task = new AsyncTask(id, run, onError);
    const begin = () =>
      scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ hours: everyHours, runImmediately: true }, task, { id, preventOverrun: true }));
    if (firstAfterMs === 0) {
      begin();
      return;
    }
    this.firstRun = setTimeout(() => {
      this.firstRun = undefined;
      begin();
    }, firstAfterMs);
  }

  stop(): void {
    clearTimeout(this.firstRun);
    this.firstRun = undefined;
    this.scheduler?.stop();
    this.scheduler = undefined;
  }
}
