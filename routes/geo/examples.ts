import type { ExampleRequest } from '../example-request.js';

const IP = 'ip=8.8.8.8';

export const examples: ExampleRequest[] = [
  { url: `/api/geo-keyed-a?${IP}` },
  { url: `/api/geo-free-a?${IP}&lang=de` },
  { url: `/api/geo-free-b?${IP}` },
  { url: `/api/geo-keyed-b?${IP}` },
  { url: `/api/geo-keyed-c?${IP}` },
  { url: `/api/geo-local?${IP}&lang=ja` },
  { url: `/api/geo-private?${IP}` },
];
