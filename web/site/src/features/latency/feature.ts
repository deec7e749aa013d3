import { defineFeature } from '../define-feature';

// The page and the report view share Globalping's words (features/globalping/strings).
export default defineFeature({
  name: 'latency',
  path: '/latency',
  page: () => import('./LatencyPage.vue'),
  title: 'nav.latency',
  nav: { group: 'tests', order: 60 },
  report: { section: 'pingtest', order: 60, view: () => import('./LatencyReport.vue') },
  privacy: { browser: 'globalping' },
  uses: ['globalping'],
});
