import { EXAMPLE_PRIVATE_API_HOST, type ExampleRequest, type UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [
  { url: '/api/dnsleaktest/session/0123456789abcdef0123456789abcdef', headers: { authorization: 'Bearer demo-user' } },
  { url: '/api/invisibility?id=abcdefghijklmnopqrstuvwxyz01', headers: { authorization: 'Bearer demo-user' } },
  {
    method: 'POST',
    url: '/api/persona/evaluate',
    headers: { authorization: 'Bearer demo-user' },
    payload: { persona: { country: 'DE', language: 'de' }, observation: { timezone: 'Europe/Berlin' } },
  },
  { method: 'GET', url: '/api/persona/evaluate', status: 405 },
];

export const upstreamAnswers: UpstreamAnswer[] = [
  {
    method: 'GET',
    host: EXAMPLE_PRIVATE_API_HOST,
    path: /^\/dnsleaktest\/session\/[0-9a-f]{32}$/,
    fixture: 'dnsleaktest-session.json',
  },
  { method: 'GET', host: EXAMPLE_PRIVATE_API_HOST, path: '/invisibility', fixture: 'invisibility-result.json' },
  { method: 'POST', host: EXAMPLE_PRIVATE_API_HOST, path: '/persona/evaluate', fixture: 'persona-evaluation.json' },
];
