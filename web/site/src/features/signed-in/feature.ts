import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'signedIn',
  path: '/signed-in',
  page: () => import('./SignedInPage.vue'),
});
