import type { ExampleRequest, UpstreamAnswer } from '../example-request.js';

export const examples: ExampleRequest[] = [{ url: '/api/repo-stars' }];

/** GitHub's answer for the default REPO_STARS_REPOSITORY. */
export const upstreamAnswers: UpstreamAnswer[] = [
  { method: 'GET', host: 'api.github.com', path: '/repos/jason5ng32/MyIP', fixture: 'repos-jason5ng32-MyIP.json' },
];
