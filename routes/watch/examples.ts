import type { ExampleRequest } from '../example-request.js';

/** A token of the right shape that no store holds: the demo answers its routes 404 Watch not found or expired. */
export const EXAMPLE_WATCH_TOKEN = 'demoWatchToken0123456789abcdefghijklmnopqrs';

export const examples: ExampleRequest[] = [
  { method: 'POST', url: '/api/watch' },
  { url: `/api/watch/${EXAMPLE_WATCH_TOKEN}`, status: 404 },
  {
    method: 'PUT',
    url: `/api/watch/${EXAMPLE_WATCH_TOKEN}/webhook`,
    payload: { url: 'https://hooks.example.com/address-changed' },
    status: 404,
  },
  { method: 'POST', url: `/api/watch/${EXAMPLE_WATCH_TOKEN}/webhook/test`, status: 404 },
  { method: 'PUT', url: `/api/watch/${EXAMPLE_WATCH_TOKEN}/push`, payload: { subscription: null }, status: 404 },
  { method: 'DELETE', url: `/api/watch/${EXAMPLE_WATCH_TOKEN}`, status: 404 },
];
