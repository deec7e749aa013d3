import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { guarded, type Guard } from '../../schemas/guarded.js';
import { PrivateApi, type Relayed } from '../../lib/private-api.js';
import { ErrorBody } from '../../schemas/error-body.js';
import {
  InvisibilityResult,
  LeakSession,
  Pending,
  PersonaEvaluation,
  QuotaBody,
} from '../../contract/private-tools.js';

const INVALID_TOKEN = 'Invalid token';
const NO_ID = 'No ID provided';
const INVALID_ID = 'Invalid ID';
const NO_PERSONA = 'No persona provided';
const QUOTA_EXCEEDED_MESSAGE = 'Monthly quota exceeded';
const SIGN_IN_REQUIRED = 'Sign in required';

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

const InvisibilityAnswer = Type.Union([Pending, InvisibilityResult]);
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * An upstream error body as the site recognises it: its text in `error`. The
 * site reads a `message` key in place of the whole body, which would hide a
 * marker, so an upstream `message` becomes `error` (when there is none) and
 * is not sent; other keys stay. `fallback` is the text when it sent none.
 */
function errorBody(data: unknown, fallback: string): Record<string, unknown> & { error: string } {
  const { message, ...rest } =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const text = [rest.error, message].find((m): m is string => typeof m === 'string' && m !== '');
  return { ...rest, error: text ?? fallback };
}

/** A 429 as the site recognises it: `code: "quota_exceeded"`, and the text in `error`. */
const quotaBody = (data: unknown): Static<typeof QuotaBody> => ({
  ...errorBody(data, QUOTA_EXCEEDED_MESSAGE),
  code: 'quota_exceeded',
});

const PersonaBody = Type.Object({
  persona: Type.Object({ country: Type.String({ minLength: 1 }) }),
  observation: Type.Optional(Type.Unknown()),
});

const NOT_POST = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The dns-leak session, proxy-detection polling and persona evaluation routes of the private companion API. */
const privateTools: FastifyPluginAsyncTypebox = async (app) => {
  const api = new PrivateApi(app.upstream, app.config, app.signInTokens);

  // The status and the body pass through whatever their shape (the spec: "passes the upstream status
  // through unchanged"); the site copes with an odd body in words. Only a 429 is reshaped, so the site
  // finds its quota marker.
  const relay = (reply: FastifyReply, res: Relayed) =>
    res.status === 429
      ? reply.code(429).send(quotaBody(res.data))
      : reply.code(res.status).type(JSON_TYPE).send(res.json);

  app.get(
    '/dnsleaktest/session/:token',
    {
      schema: {
        summary: "A DNS-leak test session's result, from the private companion API",
        params: Type.Object({ token: guarded(leakTokenGuard) }),
        querystring: Type.Object({ lang: Type.Optional(Type.String()) }),
        response: { 200: LeakSession, 429: QuotaBody, default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await api.relay(request, `/dnsleaktest/session/${encodeURIComponent(request.params.token)}`, {
        query: { lang: request.query.lang },
      });
      return relay(reply, res);
    },
  );

  app.get(
    '/invisibility',
    {
      schema: {
        summary: "A proxy-detection job's result, from the private companion API",
        querystring: Type.Object({ id: guarded(invisibilityIdGuard) }),
        response: { 200: InvisibilityAnswer, 429: QuotaBody, default: PassThrough },
      },
    },
    async (request, reply) => {
      const res = await api.relay(request, '/invisibility', { query: { id: request.query.id } });
      if (res.status === 404) return reply.code(200).send({ status: 'pending' });
      // The contract's proxy-detection page reads a refusal's text from `error` (§9), never `message`.
      if (res.status === 401 || res.status === 403) {
        return reply.code(res.status).send(errorBody(res.data, SIGN_IN_REQUIRED));
      }
      return relay(reply, res);
    },
  );

  app.post(
    '/persona/evaluate',
    {
      schema: {
        summary: "A browser persona's evaluation, from the private companion API",
        body: PersonaBody,
        response: { 200: PersonaEvaluation, 429: QuotaBody, default: PassThrough },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError) return reply.code(400).send({ error: NO_PERSONA });
      const res = await api.relay(request, '/persona/evaluate', {
        method: 'POST',
        body: JSON.stringify(request.body),
        headers: { 'content-type': 'application/json' },
      });
      return relay(reply, res);
    },
  );

  app.route({
    method: [...NOT_POST],
    url: '/persona/evaluate',
    schema: { summary: 'Every method but POST: 405', response: { 405: ErrorBody } },
    handler: async (_request, reply) => reply.code(405).send({ error: 'Method Not Allowed' }),
  });
};

export default privateTools;
export { examples, upstreamAnswers } from './examples.js';
