import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'report',
  path: '/r/:id',
  page: () => import('./ReportPage.vue'),
});
