import type { Logger } from 'pino';
import { endsWithin } from './deadline.js';

// The spec's start-up order; listening comes after the last phase.
export const BOOT_PHASES = ['geo-databases', 'asn-datasets', 'service-status', 'background'] as const;
export type BootPhase = (typeof BOOT_PHASES)[number];

/**
 * The reason `Lifecycle.stopping` aborts with: a call cut short by shutdown
 * rejects with it, so its log line says the service stopped, not that an
 * upstream timed out (the upstream timeout's own abort stays an AbortError).
 */
export class ServiceStopping extends Error {
  constructor() {
    super('abandoned: the service is stopping');
    this.name = 'ServiceStopping';
  }
}

/**
 * A start-up step not yet over, as /readyz names it: `running`, or `waiting`
 * for the steps of an earlier phase.
 */
export type StepProgress = 'running' | 'waiting';

/** How long one shutdown callback may take before shutdown carries on without it. */
const STOP_TIMEOUT_MS = 5000;

export interface BootStep {
  phase: BootPhase;
  name: string;
  run: () => Promise<void>;
  /**
   * Start-up waits this long at most for the step; past it the step goes on in
   * the background (its failure still logged) and the next one starts. Absent:
   * start-up waits for the step to end.
   */
  waitAtMostMs?: number;
}

/**
 * Start-up steps and shutdown callbacks that capabilities register while the
 * API plugin tree loads. Every step is non-fatal: a failure is logged and the
 * next one runs.
 */
export class Lifecycle {
  private readonly bootSteps: BootStep[] = [];
  private readonly stoppers: Array<{ name: string; stop: () => void | Promise<void> }> = [];
  private readonly stopRequested = new AbortController();
  // Filled when boot() begins: the listeners open without waiting for the steps, so readiness asks what is left.
  private readonly unfinished = new Map<string, StepProgress>();

  constructor(private readonly logger: Logger) {}

  addStep(step: BootStep): void {
    this.bootSteps.push(step);
  }

  /** The registered start-up steps, in registration order. */
  get steps(): readonly BootStep[] {
    return this.bootSteps;
  }

  /** Aborted when shutdown begins, even in the middle of start-up: a download in progress gives up and tidies its files. */
  get stopping(): AbortSignal {
    return this.stopRequested.signal;
  }

  onStop(name: string, stop: () => void | Promise<void>): void {
    this.stoppers.push({ name, stop });
  }

  /**
   * The steps start-up has not got past, by name: each until it ends, or until
   * its `waitAtMostMs` passes and it goes on in the background. Empty before
   * boot() and once it has run every step.
   */
  get loading(): ReadonlyMap<string, StepProgress> {
    return this.unfinished;
  }

  async boot(): Promise<void> {
    for (const step of this.steps) this.unfinished.set(step.name, 'waiting');
    try {
      for (const phase of BOOT_PHASES) {
        for (const step of this.steps.filter((s) => s.phase === phase)) {
          if (this.stopping.aborted) return;
          this.unfinished.set(step.name, 'running');
          const done = this.run(step);
          if (step.waitAtMostMs === undefined) await done;
          else if (!(await endsWithin(done, step.waitAtMostMs))) {
            this.logger.debug(
              { phase, step: step.name, ms: step.waitAtMostMs },
              'start-up step goes on in the background',
            );
          }
          this.unfinished.delete(step.name);
        }
      }
    } finally {
      // Stopping abandons the rest: nothing is loading any more, and readiness is already false.
      this.unfinished.clear();
    }
  }

  /** Runs one step to its end; never rejects. */
  private async run(step: BootStep): Promise<void> {
    const started = Date.now();
    try {
      await step.run();
      // What a step found (a dataset missing, a page unreachable) it says itself; the timing is for debugging.
      this.logger.debug({ phase: step.phase, step: step.name, ms: Date.now() - started }, 'start-up step done');
    } catch (err) {
      this.logger.error({ phase: step.phase, step: step.name, err }, 'start-up step failed; continuing');
    }
  }

  /** Runs the shutdown callbacks, newest first; one that fails or hangs is logged and skipped, so shutdown always ends. */
  async stop(timeoutMs = STOP_TIMEOUT_MS): Promise<void> {
    this.stopRequested.abort(new ServiceStopping());
    for (const { name, stop } of this.stoppers.splice(0).reverse()) {
      try {
        this.logger.debug({ step: name }, 'shutdown step');
        if (!(await endsWithin(Promise.resolve().then(stop), timeoutMs))) {
          this.logger.error({ step: name, timeoutMs }, 'shutdown step timed out; continuing');
        }
      } catch (err) {
        this.logger.error({ step: name, err }, 'shutdown step failed');
      }
    }
  }
}
