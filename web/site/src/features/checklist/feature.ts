import { defineTool } from '../define-tool';

export default defineTool({ slug: 'checklist', order: 100, page: () => import('./ChecklistPage.vue') });
