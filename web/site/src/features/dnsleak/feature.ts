import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'dnsleak',
  order: 40,
  page: () => import('./DnsLeakPage.vue'),
  report: { section: 'dnsleak', view: () => import('./DnsLeakReport.vue') },
});
