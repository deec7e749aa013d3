import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'dnsdeep',
  path: '/dnsdeep',
  page: () => import('./DnsDeepPage.vue'),
  title: 'nav.dnsdeep',
  nav: { group: 'tests', order: 45 },
  report: { section: 'enhanceddnsleak', order: 110, view: () => import('./DnsDeepReport.vue') },
  privacy: { browser: 'dnsdeep' },
});
