import { EXAMPLE_PRIVATE_API_HOST, type ExampleRequest, type UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [
  { url: '/api/getuserinfo', headers: { authorization: 'Bearer demo-user' } },
  { method: 'PUT', url: '/api/updateuserachievement', payload: { achievement: 'DnsLeakChecked' } },
];

export const upstreamAnswers: UpstreamAnswer[] = [
  { method: 'GET', host: EXAMPLE_PRIVATE_API_HOST, path: '/getuserinfo', fixture: 'getuserinfo.json' },
  {
    method: 'PUT',
    host: EXAMPLE_PRIVATE_API_HOST,
    path: '/updateuserachievement',
    fixture: 'updateuserachievement.json',
  },
];
