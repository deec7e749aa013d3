import type { ExampleRequest } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/censorship-blocking?domain=example.com' }];
