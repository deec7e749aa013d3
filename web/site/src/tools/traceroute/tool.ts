import { defineTool } from '../define-tool';
import { loadToolStrings } from '../strings';

// The page and the report view share Globalping's words (tools/globalping/strings).
export default defineTool({
  slug: 'traceroute',
  order: 70,
  page: () => Promise.all([import('./TraceroutePage.vue'), loadToolStrings('globalping')]).then(([page]) => page),
  report: {
    section: 'mtrtest',
    view: () => Promise.all([import('./TracerouteReport.vue'), loadToolStrings('globalping')]).then(([view]) => view),
  },
});
