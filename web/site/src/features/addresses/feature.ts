import { defineTool } from '../define-tool';

export default defineTool({ slug: 'addresses', order: 10, page: () => import('./AddressesPage.vue') });
