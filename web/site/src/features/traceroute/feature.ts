import { defineTool } from '../define-tool';
import { withToolStrings } from '../strings';

// The page and the report view share Globalping's words (tools/globalping/strings).
export default defineTool({
  slug: 'traceroute',
  order: 70,
  page: withToolStrings('globalping', () => import('./TraceroutePage.vue')),
  report: {
    section: 'mtrtest',
    view: withToolStrings('globalping', () => import('./TracerouteReport.vue')),
  },
});
