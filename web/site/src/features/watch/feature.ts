import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'watch',
  path: '/watch/:token?',
  page: () => import('./WatchPage.vue'),
  title: 'nav.watch',
  nav: { group: 'tests', order: 12 },
  privacy: 'server',
});
