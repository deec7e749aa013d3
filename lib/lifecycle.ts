import type { Logger } from 'pino';

// The spec's start-up order; listening comes after the last phase.
export const BOOT_PHASES = ['geo-databases', 'asn-datasets', 'service-status', 'background'] as const;
export type BootPhase = (typeof BOOT_PHASES)[number];

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
  private readonly steps: BootStep[] = [];
  private readonly stoppers: Array<{ name: string; stop: () => void | Promise<void> }> = [];

  constructor(private readonly logger: Logger) {}

  addStep(step: BootStep): void {
    this.steps.push(step);
  }

  onStop(name: string, stop: () => void | Promise<void>): void {
    this.stoppers.push({ name, stop });
  }

  async boot(): Promise<void> {
    for (const phase of BOOT_PHASES) {
      for (const step of this.steps.filter((s) => s.phase === phase)) {
        const started = Date.now();
        try {
          await step.run();
          this.logger.info({ phase, step: step.name, ms: Date.now() - started }, 'start-up step done');
        } catch (err) {
          this.logger.error({ phase, step: step.name, err }, 'start-up step failed; continuing');
        }
      }
    }
  }

  async stop(): Promise<void> {
    for (const { name, stop } of this.stoppers.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        this.logger.error({ step: name, err }, 'shutdown step failed');
      }
    }
  }
}
