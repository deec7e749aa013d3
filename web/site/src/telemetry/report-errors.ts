import type { App } from 'vue';
import { captureException, init } from '@sentry/vue';

/** The tunnel on this same service (contract: POST /api/monitoring), so no third party is contacted. */
const TUNNEL = '/api/monitoring';

// Left out: sessions (one request per page view, with nothing wrong) and breadcrumbs and console capture
// (the URLs of the requests and pages before an error name the addresses the visitor looked up).
const LEFT_OUT = new Set(['BrowserSession', 'Breadcrumbs', 'Console']);

/**
 * Reports the page's errors from now on (uncaught errors, unhandled rejections, Vue's errors)
 * and those `earlier` ones, through the service's tunnel. No personal data: no address, no cookie,
 * no component props; no performance tracing (no tracing integration, no sample rate).
 */
export function reportErrors(app: App, dsn: string, earlier: unknown[]): void {
  init({
    app,
    dsn,
    tunnel: TUNNEL,
    // SDK 11 replaced `sendDefaultPii` with this, and its defaults collect all of it: no user data (and the
    // ingest told not to infer the address, `infer_ip: never`), no cookies, headers, bodies, query strings or variables.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      stackFrameVariables: false,
    },
    sendClientReports: false,
    attachProps: false,
    integrations: (defaults) => defaults.filter((integration) => !LEFT_OUT.has(integration.name)),
  });
  for (const error of earlier) captureException(error);
}
