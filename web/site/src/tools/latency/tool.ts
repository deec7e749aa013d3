import { defineTool } from '../define-tool';
import { loadToolStrings } from '../strings';

// The page and the report view share Globalping's words (tools/globalping/strings).
export default defineTool({
  slug: 'latency',
  order: 60,
  page: () => Promise.all([import('./LatencyPage.vue'), loadToolStrings('globalping')]).then(([page]) => page),
  report: {
    section: 'pingtest',
    view: () => Promise.all([import('./LatencyReport.vue'), loadToolStrings('globalping')]).then(([view]) => view),
  },
});
