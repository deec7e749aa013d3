import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'browser',
  order: 90,
  page: () => import('./BrowserPage.vue'),
  report: { section: 'browserinfo', view: () => import('./BrowserReport.vue') },
});
