import type { Tool } from '../registry';

// A type-only import: registry.ts imports every tool.ts eagerly, so calling its defineTool here would run
// before registry.ts has defined it.
export default {
  slug: 'connectivity',
  order: 20,
  page: () => import('./ConnectivityPage.vue'),
  report: { section: 'connectivity', view: () => import('./ConnectivityReport.vue') },
} satisfies Tool;
