import type { Logger } from 'pino';

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

/** How long one shutdown callback may take before shutdown carries on without it. */
const STOP_TIMEOUT_MS = 5000;

export interface BootStep {
  phase: BootPhase;
  name: string;
  run: () => Promise<void>;
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

  async boot(): Promise<void> {
    for (const phase of BOOT_PHASES) {
      for (const step of this.steps.filter((s) => s.phase === phase)) {
        if (this.stopping.aborted) return;
        const started = Date.now();
        try {
          await step.run();
          // What a step found (a dataset missing, a page unreachable) it says itself; the timing is for debugging.
          this.logger.debug({ phase, step: step.name, ms: Date.now() - started }, 'start-up step done');
        } catch (err) {
          this.logger.error({ phase, step: step.name, err }, 'start-up step failed; continuing');
        }
      }
    }
  }

  /** Runs the shutdown callbacks, newest first; one that fails or hangs is logged and skipped, so shutdown always ends. */
  async stop(timeoutMs = STOP_TIMEOUT_MS): Promise<void> {
    this.stopRequested.abort(new ServiceStopping());
    for (const { name, stop } of this.stoppers.splice(0).reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        this.logger.debug({ step: name }, 'shutdown step');
        const outcome = await Promise.race([Promise.resolve().then(stop), timedOut]);
        if (outcome === 'timeout') this.logger.error({ step: name, timeoutMs }, 'shutdown step timed out; continuing');
      } catch (err) {
        this.logger.error({ step: name, err }, 'shutdown step failed');
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
