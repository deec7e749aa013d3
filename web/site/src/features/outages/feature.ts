import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'outages',
  path: '/outages',
  page: () => import('./OutagesPage.vue'),
  nav: { group: 'lookups', order: 250 },
});
