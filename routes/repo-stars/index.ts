import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UpstreamFailure, UpstreamError } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';

export const NO_REPOSITORY = 'No repository is set';

/** `{stars}`: a number, as the site's badge needs. */
const Stars = Type.Object({ stars: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

/** GET /api/repo-stars: the project's stargazer count, fetched unauthenticated; a failure is a 500 with its message, as on the geo routes. */
const repoStars: FastifyPluginAsyncTypebox = async (app) => {
  const url = `https://api.github.com/repos/${app.config.REPO_STARS_REPOSITORY}`;
  const cacheTtl = 24 * 60 * 60;
  const starCount = async () => {
    const repo = await app.upstream.okJson<{ stargazers_count?: unknown }>(url, {
      headers: { accept: 'application/vnd.github+json' },
      keepForMs: cacheTtl * 1000,
      keepIf: (body) => typeof (body as { stargazers_count?: unknown } | null)?.stargazers_count === 'number',
    });
    if (typeof repo.stargazers_count !== 'number') throw new UpstreamError('Upstream answered without a star count');
    return repo.stargazers_count;
  };
  const failed = UpstreamFailure.withReason('repository star count failed');
  app.get(
    '/repo-stars',
    {
      schema: {
        summary: "The project repository's star count",
        description: 'Answers 404 while REPO_STARS_REPOSITORY is empty: there is no repository to count.',
        response: { 200: Stars, 404: ErrorBody },
      },
      config: { cacheTtl },
    },
    async (_request, reply) => {
      if (!app.config.REPO_STARS_REPOSITORY) return reply.code(404).send({ error: NO_REPOSITORY });
      return { stars: await starCount().catch(failed) };
    },
  );
};

export default repoStars;
export { examples, upstreamAnswers } from './examples.js';
