import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'invisibility',
  path: '/invisibility',
  page: () => import('./InvisibilityPage.vue'),
  title: 'nav.invisibility',
  nav: { group: 'tests', order: 46 },
  report: { section: 'invisibility', order: 100, view: () => import('./InvisibilityReport.vue') },
  privacy: { browser: 'invisibility' },
});
