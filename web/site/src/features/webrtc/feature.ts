import { defineTool } from '../define-tool';

export default defineTool({
  slug: 'webrtc',
  order: 30,
  page: () => import('./WebrtcPage.vue'),
  report: { section: 'webrtc', view: () => import('./WebrtcReport.vue') },
});
