import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'rules',
  order: 80,
  page: () => import('./RulesPage.vue'),
  report: { section: 'ruletest', view: () => import('./RulesReport.vue') },
});
