import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'checklist',
  path: '/checklist',
  page: () => import('./ChecklistPage.vue'),
  title: 'nav.checklist',
  nav: { group: 'tests', order: 100 },
  privacy: { browser: 'checklist' },
});
