import type { ExampleRequest, UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [
  { url: '/api/map?latitude=37.4&longitude=-122.08&language=en&CanvasMode=Dark' },
];

export const upstreamAnswers: UpstreamAnswer[] = [
  {
    method: 'GET',
    host: 'maps.googleapis.com',
    path: '/maps/api/staticmap',
    fixture: 'staticmap.jpg',
    contentType: 'image/jpeg',
  },
];
