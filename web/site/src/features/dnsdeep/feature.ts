import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'dnsdeep',
  order: 45,
  page: () => import('./DnsDeepPage.vue'),
  report: { section: 'enhanceddnsleak', view: () => import('./DnsDeepReport.vue') },
});
