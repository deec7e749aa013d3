import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'connectivity',
  path: '/connectivity',
  page: () => import('./ConnectivityPage.vue'),
  title: 'nav.connectivity',
  nav: { group: 'tests', order: 20 },
  report: { section: 'connectivity', order: 20, view: () => import('./ConnectivityReport.vue') },
  privacy: { browser: 'connectivity' },
});
