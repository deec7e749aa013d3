import { fixture, type FakeUpstream } from '../fake-upstream.js';
import { loadConfig } from '../../../fastify.config.js';

/** GET /api/repo-stars: GitHub's repository answer for the default REPO_STARS_REPOSITORY. */
export function registerFoundationFakeRoutes(fake: FakeUpstream): void {
  const repository = loadConfig({}).REPO_STARS_REPOSITORY;
  fake.on('GET', 'api.github.com', `/repos/${repository}`, { json: fixture('api.github.com', 'repos-jason5ng32-MyIP.json') });
}
