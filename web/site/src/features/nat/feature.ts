import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'nat',
  path: '/nat',
  page: () => import('./NatPage.vue'),
  title: 'nav.nat',
  nav: { group: 'tests', order: 35 },
  report: { section: 'nattest', order: 140, view: () => import('./NatReport.vue') },
  privacy: { browser: 'nat' },
});
