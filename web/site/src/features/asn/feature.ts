import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'asn',
  path: '/asn/:asn',
  page: () => import('./AsnPage.vue'),
});
