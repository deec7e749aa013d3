import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'notFound',
  path: '/:rest(.*)*',
  page: () => import('./NotFoundPage.vue'),
});
