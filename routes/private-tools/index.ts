import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { defineGuard, guarded } from '../../schemas/guards.js';
import { ApiKeyMissing, PrivateApi, type ForwardOptions } from '../../lib/private-api.js';
import { UpstreamError, type UpstreamJson } from '../../lib/upstream.js';
import { UPSTREAM_ERROR, UPSTREAM_FETCH_FAILED } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

const INVALID_TOKEN = 'Invalid token';
const NO_ID = 'No id provided';
const INVALID_ID = 'Invalid id';
const NO_PERSONA = 'No persona provided';
const QUOTA_EXCEEDED_MESSAGE = 'Monthly quota exceeded';

// Tokens and ids are matched whole against a fixed alphabet, so no `/`, `.`,
// `@`, `%` or `?` can reach the private API's URL path or query.
defineGuard('leakToken', {
  missing: INVALID_TOKEN,
  invalid: INVALID_TOKEN,
  check: (value) => (/^[0-9a-fA-F]{32}$/.test(value) ? value.toLowerCase() : { error: INVALID_TOKEN }),
});
defineGuard('invisibilityId', {
  missing: NO_ID,
  invalid: INVALID_ID,
  check: (value) => (/^[A-Za-z0-9]{28}$/.test(value) ? value : { error: INVALID_ID }),
});

// The private API's payloads are passed through as they are, whatever their status.
const PassThrough = Type.Unknown({ description: 'the private API payload, unchanged' });
const QuotaBody = Type.Object({ error: Type.String(), code: Type.Literal('quota_exceeded') });

const PersonaBody = Type.Object({
  persona: Type.Object({ country: Type.String({ minLength: 1 }) }),
  observation: Type.Optional(Type.Unknown()),
});

const NOT_POST = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The dns-leak session, proxy-detection polling and persona evaluation routes of the private companion API. */
const privateTools: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config);

  // Missing settings stay the 500 of the spec. A refused connection, a timeout
  // or a 2xx body that is not JSON gives undefined (answered 502); an error
  // status with a body that is not JSON keeps its status with a JSON body.
  const forward = async (request: FastifyRequest, path: string, options?: ForwardOptions): Promise<Pick<UpstreamJson<unknown>, 'status' | 'data'> | undefined> => {
    try {
      return await api.forward(request, path, options);
    } catch (err) {
      if (err instanceof ApiKeyMissing) throw err;
      request.log.warn({ err, path }, 'private API call failed');
      if (err instanceof UpstreamError && err.status !== undefined && err.status >= 400) {
        const data = err.status === 429 ? { error: QUOTA_EXCEEDED_MESSAGE, code: 'quota_exceeded' } : { error: UPSTREAM_ERROR };
        return { status: err.status, data };
      }
      return undefined;
    }
  };

  app.get(
    '/dnsleaktest/session/:token',
    {
      schema: {
        params: Type.Object({ token: guarded('leakToken') }),
        querystring: Type.Object({ lang: Type.Optional(Type.String()) }),
        response: { default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await forward(request, `/dnsleaktest/session/${encodeURIComponent(request.params.token as string)}`, { query: { lang: request.query.lang } });
      if (!res) return reply.code(502).send({ error: UPSTREAM_FETCH_FAILED });
      return reply.code(res.status).send(res.data);
    },
  );

  app.get(
    '/invisibility',
    {
      schema: {
        querystring: Type.Object({ id: guarded('invisibilityId') }),
        response: { 200: PassThrough, 429: QuotaBody, default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await forward(request, '/invisibility', { query: { id: request.query.id as string } });
      if (!res) return reply.code(502).send({ error: UPSTREAM_FETCH_FAILED });
      if (res.status === 404) return reply.code(200).send({ status: 'pending' });
      if (res.status === 429) {
        const message = (res.data as { error?: unknown; message?: unknown } | null) ?? {};
        const text = [message.error, message.message].find((m): m is string => typeof m === 'string' && m !== '');
        return reply.code(429).send({ error: text ?? QUOTA_EXCEEDED_MESSAGE, code: 'quota_exceeded' });
      }
      return reply.code(res.status).send(res.data);
    },
  );

  app.post(
    '/persona/evaluate',
    { schema: { body: PersonaBody, response: { default: PassThrough } }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return reply.code(400).send({ error: NO_PERSONA });
      const res = await forward(request, '/persona/evaluate', {
        method: 'POST',
        body: JSON.stringify(request.body),
        dropHeaders: ['content-type'],
        headers: { 'content-type': 'application/json' },
      });
      if (!res) return reply.code(502).send({ error: UPSTREAM_FETCH_FAILED });
      return reply.code(res.status).send(res.data);
    },
  );

  app.route({
    method: [...NOT_POST],
    url: '/persona/evaluate',
    schema: { response: { 405: ErrorBody } },
    handler: async (_request, reply) => reply.code(405).send({ error: 'Method Not Allowed' }),
  });
};

export default privateTools;
