import type { Tool } from '../registry';

// A type-only import: registry.ts imports every tool.ts eagerly, so calling its defineTool here would run
// before registry.ts has defined it.
export default {
  slug: 'dnsleak',
  order: 40,
  page: () => import('./DnsLeakPage.vue'),
  report: { section: 'dnsleak', view: () => import('./DnsLeakReport.vue') },
} satisfies Tool;
