import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'status',
  path: '/status',
  page: () => import('./StatusPage.vue'),
  nav: { group: 'lookups', order: 240 },
});
