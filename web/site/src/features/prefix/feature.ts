import { defineFeature } from '../define-feature';

// A prefix keeps its slash: /prefix/8.8.8.0/24. The last segment (the
// length) has no file extension, so the front listener answers index.html.
export default defineFeature({
  name: 'prefix',
  path: '/prefix/:address/:length',
  page: () => import('./PrefixPage.vue'),
});
