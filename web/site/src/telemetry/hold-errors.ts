import type { App } from 'vue';

// Enough to tell what went wrong while the page started; a page throwing in a loop keeps no more.
const KEPT = 20;

/** Vue's own answer to a component's error in a production build: the console, and nothing else. */
export function logVueError(error: unknown): void {
  console.error(error);
}

export interface HeldErrors {
  /** Stops holding and hands over what was held (nothing more is kept after this). */
  release(): unknown[];
}

/**
 * Keeps the page's errors (uncaught, unhandled rejections, Vue's) from the start, until it is known
 * whether they are reported; `onFirst` runs at the first one. The SDK comes later, and an error at
 * start-up is the one most worth seeing.
 */
export function holdErrors(app: App, onFirst: () => void): HeldErrors {
  const held: unknown[] = [];
  let seen = false;
  const keep = (error: unknown) => {
    if (held.length < KEPT) held.push(error);
    if (seen) return;
    seen = true;
    onFirst();
  };
  const onError = (event: ErrorEvent) => keep(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => keep(event.reason);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  app.config.errorHandler = (error) => {
    keep(error);
    logVueError(error);
  };
  return {
    release() {
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
      app.config.errorHandler = logVueError;
      return held.splice(0);
    },
  };
}
