import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'history',
  path: '/history',
  page: () => import('./HistoryPage.vue'),
});
