import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'ip',
  path: '/ip/:address',
  page: () => import('./IpPage.vue'),
});
