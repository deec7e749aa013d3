import type { App } from 'vue';
import { loadSiteSettings } from '../api/site-settings';
import { holdErrors, type HeldErrors } from './hold-errors';

/** Runs `work` once the browser has painted and has a moment to spare. */
function afterFirstPaint(work: () => void): void {
  requestAnimationFrame(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 5000 });
    else setTimeout(work, 1000);
  });
}

/**
 * With a DSN in the operator's settings, loads the error-reporting SDK (its own chunk) and hands it
 * what was held; without one, or when the settings cannot be read, loads nothing and keeps nothing.
 */
async function report(app: App, held: HeldErrors): Promise<void> {
  try {
    const dsn = (await loadSiteSettings()).telemetry?.dsn;
    if (!dsn) {
      held.release();
      return;
    }
    const { reportErrors } = await import('./report-errors');
    reportErrors(app, dsn, held.release());
  } catch {
    // Offline, or a service without the document: the visit goes on without reporting.
    held.release();
  }
}

/**
 * Reports the page's errors when the operator set a DSN. Nothing is loaded until the first error
 * (and the first paint): a visit without one pays nothing for it.
 */
export function startTelemetry(app: App): void {
  const held = holdErrors(app, () => afterFirstPaint(() => void report(app, held)));
}
