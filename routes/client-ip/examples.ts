import type { ExampleRequest } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/client-ip' }, { url: '/api/client-ip/large' }];
