import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'dnsleak',
  path: '/dnsleak',
  page: () => import('./DnsLeakPage.vue'),
  title: 'nav.dnsleak',
  nav: { group: 'tests', order: 40 },
  report: { section: 'dnsleak', order: 40, view: () => import('./DnsLeakReport.vue') },
  privacy: { browser: 'dnsleak' },
});
