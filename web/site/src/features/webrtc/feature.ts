import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'webrtc',
  path: '/webrtc',
  page: () => import('./WebrtcPage.vue'),
  title: 'nav.webrtc',
  nav: { group: 'tests', order: 30 },
  report: { section: 'webrtc', order: 30, view: () => import('./WebrtcReport.vue') },
  privacy: { browser: 'webrtc' },
});
