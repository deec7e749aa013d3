import { onScopeDispose } from 'vue';

export interface Runs {
  /** Ends the run before (its requests, and the answers it still waits for) and starts another: its signal. */
  next(): AbortSignal;
  /** The current run's signal, for work it adds later. */
  readonly signal: AbortSignal;
}

/** A component's runs of one task, one at a time; the component's end ends the last. */
export function useRuns(): Runs {
  let controller = new AbortController();
  onScopeDispose(() => controller.abort());
  return {
    next() {
      controller.abort();
      controller = new AbortController();
      return controller.signal;
    },
    get signal() {
      return controller.signal;
    },
  };
}
