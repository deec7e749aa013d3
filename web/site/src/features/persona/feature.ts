import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'persona',
  order: 47,
  page: () => import('./PersonaPage.vue'),
  report: { section: 'persona', view: () => import('./PersonaReport.vue') },
});
