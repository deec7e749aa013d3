import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'whois',
  path: '/whois',
  page: () => import('./WhoisPage.vue'),
  nav: { group: 'lookups', order: 200 },
});
