import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Compile, type Validator } from 'typebox/compile';
import { guarded, type Guard } from '../../schemas/guarded.js';
import { ApiKeyMissing, PrivateApi, type ForwardOptions } from '../../lib/private-api.js';
import { UpstreamError } from '../../lib/upstream.js';
import { UPSTREAM_ERROR, UpstreamFailed, UpstreamUnreachable } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { InvisibilityResult, LeakSession, Pending, PersonaEvaluation, QuotaBody } from './schemas.js';

const INVALID_TOKEN = 'Invalid token';
const NO_ID = 'No ID provided';
const INVALID_ID = 'Invalid ID';
const NO_PERSONA = 'No persona provided';
const QUOTA_EXCEEDED_MESSAGE = 'Monthly quota exceeded';

// Tokens and ids are matched whole against a fixed alphabet, so no `/`, `.`,
// `@`, `%` or `?` can reach the private API's URL path or query.
const leakTokenGuard: Guard = {
  missing: INVALID_TOKEN,
  invalid: INVALID_TOKEN,
  check: (value) => (/^[0-9a-fA-F]{32}$/.test(value) ? value.toLowerCase() : { error: INVALID_TOKEN }),
};
const invisibilityIdGuard: Guard = {
  missing: NO_ID,
  invalid: INVALID_ID,
  check: (value) => (/^[A-Za-z0-9]{28}$/.test(value) ? value : { error: INVALID_ID }),
};

// Error payloads of the private API (other than a 429) pass through as they are.
const PassThrough = Type.Unknown({
  description:
    'our own errors as {"error"} (400 guard strings, 500 API key is missing, 502 Upstream fetch failed or Upstream error), or the private API error payload unchanged',
});

const checkLeakSession = Compile(LeakSession);
const InvisibilityAnswer = Type.Union([Pending, InvisibilityResult]);
const checkInvisibility = Compile(InvisibilityAnswer);
const checkPersona = Compile(PersonaEvaluation);

/**
 * A 429 as the site recognises it: `code: "quota_exceeded"`, and the text in
 * `error`. The site reads a `message` key in place of the whole body, which
 * would hide the code, so an upstream `message` becomes `error` (when there is
 * none) and is not sent; other keys stay.
 */
function quotaBody(data: unknown): Static<typeof QuotaBody> {
  const { message, ...rest } =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const text = [rest.error, message].find((m): m is string => typeof m === 'string' && m !== '');
  return { ...rest, error: text ?? QUOTA_EXCEEDED_MESSAGE, code: 'quota_exceeded' };
}

const PersonaBody = Type.Object({
  persona: Type.Object({ country: Type.String({ minLength: 1 }) }),
  observation: Type.Optional(Type.Unknown()),
});

const NOT_POST = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The dns-leak session, proxy-detection polling and persona evaluation routes of the private companion API. */
const privateTools: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config);

  // Missing settings stay the 500 of the spec. A refused connection, a timeout
  // or a 2xx body that is not JSON is a 502 Upstream fetch failed; an error
  // status with a body that is not JSON keeps its status, without data.
  const forward = async (
    request: FastifyRequest,
    path: string,
    options?: ForwardOptions,
  ): Promise<{ status: number; data?: unknown }> => {
    try {
      const { status, data } = await api.forward(request, path, options);
      return { status, data };
    } catch (err) {
      if (err instanceof ApiKeyMissing) throw err;
      if (!(err instanceof UpstreamError && err.status !== undefined && err.status >= 400)) {
        throw new UpstreamUnreachable('private API call failed', { err, path });
      }
      request.log.warn({ err, path }, 'private API call failed');
      return { status: err.status };
    }
  };

  // The status passes through; a 200 must hold what the site reads, or it is the private API's fault (502), not a blank panel.
  const relay = (reply: FastifyReply, res: { status: number; data?: unknown }, contract: Validator) => {
    if (res.status === 429) return reply.code(429).send(quotaBody(res.data));
    if (res.status === 200 && !contract.Check(res.data)) {
      throw new UpstreamFailed('private API answer lacks what the site reads', {
        problems: contract
          .Errors(res.data)
          .slice(0, 3)
          .map((e) => `${e.instancePath} ${e.message}`),
      });
    }
    return reply.code(res.status).send(res.data ?? { error: UPSTREAM_ERROR });
  };

  app.get(
    '/dnsleaktest/session/:token',
    {
      schema: {
        params: Type.Object({ token: guarded(leakTokenGuard) }),
        querystring: Type.Object({ lang: Type.Optional(Type.String()) }),
        response: { 200: LeakSession, 429: QuotaBody, default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await forward(request, `/dnsleaktest/session/${encodeURIComponent(request.params.token)}`, {
        query: { lang: request.query.lang },
      });
      return relay(reply, res, checkLeakSession);
    },
  );

  app.get(
    '/invisibility',
    {
      schema: {
        querystring: Type.Object({ id: guarded(invisibilityIdGuard) }),
        response: { 200: InvisibilityAnswer, 429: QuotaBody, default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await forward(request, '/invisibility', { query: { id: request.query.id } });
      if (res.status === 404) return reply.code(200).send({ status: 'pending' });
      return relay(reply, res, checkInvisibility);
    },
  );

  app.post(
    '/persona/evaluate',
    {
      schema: { body: PersonaBody, response: { 200: PersonaEvaluation, 429: QuotaBody, default: PassThrough } },
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError) return reply.code(400).send({ error: NO_PERSONA });
      const res = await forward(request, '/persona/evaluate', {
        method: 'POST',
        body: JSON.stringify(request.body),
        headers: { 'content-type': 'application/json' },
      });
      return relay(reply, res, checkPersona);
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
export { examples, upstreamAnswers } from './examples.js';
