import { defineFeature } from '../define-feature';

// The page and the report view share Globalping's words (features/globalping/strings).
export default defineFeature({
  name: 'traceroute',
  path: '/traceroute',
  page: () => import('./TraceroutePage.vue'),
  title: 'nav.traceroute',
  nav: { group: 'tests', order: 70 },
  report: { section: 'mtrtest', order: 70, view: () => import('./TracerouteReport.vue') },
  privacy: { browser: 'globalping' },
  uses: ['globalping'],
});
