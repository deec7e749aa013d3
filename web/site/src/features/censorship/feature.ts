import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'censorship',
  path: '/censorship',
  page: () => import('./CensorshipPage.vue'),
  nav: { group: 'lookups', order: 230 },
});
