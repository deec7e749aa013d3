import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'runall',
  path: '/runall',
  page: () => import('./RunAllPage.vue'),
  nav: { group: 'tests', order: 5 },
  uses: ['addresses', 'connectivity', 'webrtc', 'dnsleak', 'speed'],
});
