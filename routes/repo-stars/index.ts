import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** `{stars}`: a number, as the site's badge needs. */
const Stars = Type.Object({ stars: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

/** GET /api/repo-stars: the project's stargazer count, fetched unauthenticated. */
const repoStars: FastifyPluginAsyncTypebox = async (app) => {
  const url = `https://api.github.com/repos/${app.config.REPO_STARS_REPOSITORY}`;
  app.get('/repo-stars', { schema: { response: { 200: Stars } }, config: { cacheTtl: 24 * 60 * 60 } }, async () => {
    const repo = await app.upstream.okJson<{ stargazers_count?: unknown }>(url, {
      headers: { accept: 'application/vnd.github+json' },
    });
    if (typeof repo.stargazers_count !== 'number') throw new Error('Upstream answered without a star count');
    return { stars: repo.stargazers_count };
  });
};

export default repoStars;
export { examples, upstreamAnswers } from './examples.js';
