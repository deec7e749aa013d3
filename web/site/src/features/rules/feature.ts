import { defineFeature } from '../define-feature';

export default defineFeature({
  name: 'rules',
  path: '/rules',
  page: () => import('./RulesPage.vue'),
  title: 'nav.rules',
  nav: { group: 'tests', order: 80 },
  report: { section: 'ruletest', order: 80, view: () => import('./RulesReport.vue') },
  privacy: { browser: 'rules' },
});
