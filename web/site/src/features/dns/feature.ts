import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'dns',
  path: '/dns',
  page: () => import('./DnsPage.vue'),
  nav: { group: 'lookups', order: 210 },
});
