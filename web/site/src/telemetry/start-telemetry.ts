import type { App } from 'vue';
import { loadSiteSettings } from '../api/site-settings';
import type { HeldErrors } from './hold-errors';

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
export function startTelemetry(app: App, held: HeldErrors): void {
  afterFirstPaint(() => {
    void loadSiteSettings()
      .then(async (settings) => {
        const dsn = settings.telemetry?.dsn;
        if (!dsn) return held.release();
        const { reportErrors } = await import('./report-errors');
        reportErrors(app, dsn, held.release());
      })
      // Offline, or a service without the document: the visit goes on without reporting.
      .catch(() => held.release());
  });
}
