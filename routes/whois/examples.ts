import type { ExampleRequest } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/whois?q=example.com' }];
