import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'mac',
  path: '/mac/:mac?',
  page: () => import('./MacPage.vue'),
  nav: { group: 'lookups', order: 220 },
});
