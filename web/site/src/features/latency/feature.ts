import { defineTool } from '../define-tool';
import { withToolStrings } from '../strings';

// The page and the report view share Globalping's words (tools/globalping/strings).
export default defineTool({
  slug: 'latency',
  order: 60,
  page: withToolStrings('globalping', () => import('./LatencyPage.vue')),
  report: {
    section: 'pingtest',
    view: withToolStrings('globalping', () => import('./LatencyReport.vue')),
  },
});
