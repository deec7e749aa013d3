import type { ExampleRequest } from '../example-request.js';

export const examples: ExampleRequest[] = [
  { url: '/api/asn-connectivity?asn=15169' },
  { url: '/api/asn-history?prefix=8.8.8.0/24' },
  { url: '/api/asn-radar?view=asn&asn=15169' },
  { url: '/api/asn-radar?view=outages' },
  { url: '/api/asn-radar?view=activity&country=US' },
  { method: 'POST', url: '/api/asn-radar', status: 405 },
];
