import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'connectivity',
  order: 20,
  page: () => import('./ConnectivityPage.vue'),
  report: { section: 'connectivity', view: () => import('./ConnectivityReport.vue') },
});
