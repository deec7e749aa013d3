import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'addresses',
  path: '/addresses',
  page: () => import('./AddressesPage.vue'),
  title: 'nav.addresses',
  nav: { group: 'tests', order: 10 },
  privacy: { browser: 'addresses' },
});
