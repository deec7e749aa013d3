import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'privacy',
  path: '/privacy',
  page: () => import('./PrivacyPage.vue'),
  nav: { group: 'about', order: 310, label: 'footer.privacy' },
});
