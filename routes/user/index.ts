import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PrivateApi } from '../../lib/private-api.js';

/**
 * GET /api/getuserinfo and PUT /api/updateuserachievement: the private
 * companion API's `{endpoint}/getuserinfo` and `{endpoint}/updateuserachievement`,
 * called with the caller's headers (Authorization included). The upstream
 * status and JSON body pass through unchanged.
 */
const user: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config);

  app.get('/getuserinfo', async (request, reply) => {
    const res = await api.forward(request, '/getuserinfo');
    return reply.code(res.status).type('application/json; charset=utf-8').send(JSON.stringify(res.data));
  });

  // The achievement payload belongs to the companion API; only "a JSON object" is checked here.
  app.put(
    '/updateuserachievement',
    { schema: { body: Type.Object({}, { additionalProperties: true }) } },
    async (request, reply) => {
      const res = await api.forward(request, '/updateuserachievement', {
        method: 'PUT',
        body: JSON.stringify(request.body),
        dropHeaders: ['content-type'],
        headers: { 'content-type': 'application/json' },
      });
      return reply.code(res.status).type('application/json; charset=utf-8').send(JSON.stringify(res.data));
    },
  );
};

export default user;
