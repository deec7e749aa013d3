import type { ExampleRequest, UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/probe-countries' }];

export const upstreamAnswers: UpstreamAnswer[] = [
  { method: 'GET', host: 'api.globalping.io', path: '/v1/probes', fixture: 'probes.json' },
];
