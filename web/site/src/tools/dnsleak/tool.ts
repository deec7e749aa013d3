import { defineTool } from '../registry';

export default defineTool({
  slug: 'dnsleak',
  order: 40,
  page: () => import('./DnsLeakPage.vue'),
  report: { section: 'dnsleak', view: () => import('./DnsLeakReport.vue') },
});
