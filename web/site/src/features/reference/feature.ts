import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'reference',
  path: '/reference',
  page: () => import('./ReferencePage.vue'),
  nav: { group: 'about', order: 300 },
});
