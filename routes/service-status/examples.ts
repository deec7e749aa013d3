import type { ExampleRequest } from '../example-request.js';

export const examples: ExampleRequest[] = [
  { url: '/api/service-status' },
  { url: '/api/service-status/detail?id=claude' },
];
