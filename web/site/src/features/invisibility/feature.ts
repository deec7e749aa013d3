import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'invisibility',
  order: 46,
  page: () => import('./InvisibilityPage.vue'),
  report: { section: 'invisibility', view: () => import('./InvisibilityReport.vue') },
});
