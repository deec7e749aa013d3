import type { ExampleRequest, UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/macchecker?mac=00:1A:2B:3C:4D:5E' }];

export const upstreamAnswers: UpstreamAnswer[] = [
  { method: 'GET', host: 'api.maclookup.app', path: /^\/v2\/macs\/[0-9A-F]{12}$/, fixture: 'found.json' },
];
