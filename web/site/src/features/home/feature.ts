import { defineFeature } from '../define-feature';
// Most visits start here: the page is in the main bundle, as are its texts
// (the root locales), so nothing is fetched before its first paint.
import HomePage from './HomePage.vue';

export default defineFeature({
  name: 'home',
  path: '/',
  page: () => Promise.resolve({ default: HomePage }),
  nav: { group: 'tests', order: 0 },
  report: { section: 'ipinfo', order: 10, view: () => import('./IpInfoReport.vue') },
  privacy: 'server',
});
