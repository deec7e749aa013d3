import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'persona',
  path: '/persona',
  page: () => import('./PersonaPage.vue'),
  title: 'nav.persona',
  nav: { group: 'tests', order: 47 },
  report: { section: 'persona', order: 120, view: () => import('./PersonaReport.vue') },
  privacy: { browser: 'persona' },
});
