import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'speed',
  path: '/speed',
  page: () => import('./SpeedPage.vue'),
  title: 'nav.speed',
  nav: { group: 'tests', order: 50 },
  report: { section: 'speedtest', order: 50, view: () => import('./SpeedReport.vue') },
  privacy: { browser: 'speed' },
});
