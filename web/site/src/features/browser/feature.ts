import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'browser',
  path: '/browser',
  page: () => import('./BrowserPage.vue'),
  title: 'nav.browser',
  nav: { group: 'tests', order: 90 },
  report: { section: 'browserinfo', order: 90, view: () => import('./BrowserReport.vue') },
  privacy: { browser: 'fingerprint' },
});
