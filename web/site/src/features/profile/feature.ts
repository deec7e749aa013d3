import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'profile',
  path: '/profile',
  page: () => import('./ProfilePage.vue'),
  uses: ['achievements'],
});
