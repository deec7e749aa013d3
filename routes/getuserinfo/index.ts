import type { FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PrivateApi } from '../../lib/private-api.js';
import { AchievementUnlock, Passed, UnlockAnswer, UserInfo } from '../../contract/user-info.js';

/**
 * GET /api/getuserinfo and PUT /api/updateuserachievement: the private
 * companion API's `{endpoint}/getuserinfo` and `{endpoint}/updateuserachievement`,
 * called with the caller's headers (Authorization included). The upstream
 * status and JSON body pass through unchanged (PrivateApi.relay, which also
 * says what a failure answers, as on the private tools): the body is sent as
 * the JSON text it was, so the response schemas describe it without filtering it.
 */
const user: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config, app.signInTokens);
  const json = 'application/json; charset=utf-8';

  app.withTypeProvider<FastifyTypeProviderDefault>().get(
    '/getuserinfo',
    {
      schema: {
        summary: "The signed-in visitor's account, from the private companion API",
        response: { 200: UserInfo, default: Passed },
      },
    },
    async (request, reply) => {
      const res = await api.relay(request, '/getuserinfo');
      return reply.code(res.status).type(json).send(res.json);
    },
  );

  app.withTypeProvider<FastifyTypeProviderDefault>().put(
    '/updateuserachievement',
    {
      schema: {
        summary: "Records an achievement on the visitor's account, at the private companion API",
        body: AchievementUnlock,
        response: { 200: UnlockAnswer, default: Passed },
      },
    },
    async (request, reply) => {
      const res = await api.relay(request, '/updateuserachievement', {
        method: 'PUT',
        body: JSON.stringify(request.body),
        headers: { 'content-type': 'application/json' },
      });
      return reply.code(res.status).type(json).send(res.json);
    },
  );
};

export default user;
export { examples, upstreamAnswers } from './examples.js';
