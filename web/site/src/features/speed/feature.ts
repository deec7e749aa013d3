import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'speed',
  order: 50,
  page: () => import('./SpeedPage.vue'),
  report: { section: 'speedtest', view: () => import('./SpeedReport.vue') },
});
