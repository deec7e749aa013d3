import type { BenchCase } from '../scenario.js';

// A repository of its own, so this slow answer stays apart from any other case's.
const REPOSITORY = 'bench/slow-upstream';
const UPSTREAM_DELAY_MS = 200;

/**
 * A route whose upstream answers slowly, under the bench's concurrency: what
 * sharing identical lookups and keeping their answers is worth (issue 32).
 * GitHub is the upstream whose limit bites first: 60 unauthenticated calls an hour.
 */
export const slowUpstreamCases: BenchCase[] = [
  {
    name: `GET /api/repo-stars (GitHub answering in ${UPSTREAM_DELAY_MS} ms)`,
    listener: 'api',
    path: '/api/repo-stars',
    env: { REPO_STARS_REPOSITORY: REPOSITORY },
    fake: (fake) =>
      fake.on('GET', 'api.github.com', `/repos/${REPOSITORY}`, {
        json: { stargazers_count: 1234 },
        delayMs: UPSTREAM_DELAY_MS,
      }),
  },
];
