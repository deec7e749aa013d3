import type { FastifyRequest, FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PrivateApi, type ForwardOptions } from '../../lib/private-api.js';
import { upstreamFailure } from '../../lib/http-error.js';
import { AchievementUnlock, Passed, UnlockAnswer, UserInfo } from './schemas.js';

/**
 * GET /api/getuserinfo and PUT /api/updateuserachievement: the private
 * companion API's `{endpoint}/getuserinfo` and `{endpoint}/updateuserachievement`,
 * called with the caller's headers (Authorization included). The upstream
 * status and JSON body pass through unchanged: the body is sent as the JSON
 * text it was, so the response schemas describe it without filtering it. No
 * answer is a 502 Upstream fetch failed, a body that is not JSON a 502 Upstream
 * error (the private tools under /api/persona answer a non-JSON body their own
 * way: docs/network-tools.md).
 */
const user: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config);
  const json = 'application/json; charset=utf-8';
  const forward = (request: FastifyRequest, path: string, options?: ForwardOptions) =>
    api.forward(request, path, options).catch((err: unknown) => {
      throw upstreamFailure(err, 'private API call failed', { path });
    });

  app
    .withTypeProvider<FastifyTypeProviderDefault>()
    .get('/getuserinfo', { schema: { response: { 200: UserInfo, default: Passed } } }, async (request, reply) => {
      const res = await forward(request, '/getuserinfo');
      return reply.code(res.status).type(json).send(JSON.stringify(res.data));
    });

  app
    .withTypeProvider<FastifyTypeProviderDefault>()
    .put(
      '/updateuserachievement',
      { schema: { body: AchievementUnlock, response: { 200: UnlockAnswer, default: Passed } } },
      async (request, reply) => {
        const res = await forward(request, '/updateuserachievement', {
          method: 'PUT',
          body: JSON.stringify(request.body),
          headers: { 'content-type': 'application/json' },
        });
        return reply.code(res.status).type(json).send(JSON.stringify(res.data));
      },
    );
};

export default user;
export { examples, upstreamAnswers } from './examples.js';
