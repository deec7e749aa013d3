import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'ipv6',
  path: '/ipv6',
  page: () => import('./Ipv6Page.vue'),
  title: 'nav.ipv6',
  nav: { group: 'tests', order: 15 },
  report: { section: 'ipv6readiness', order: 130, view: () => import('./Ipv6Report.vue') },
  privacy: 'server',
});
