import type { FastifySchema } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ErrorBody, TooManyRequestsBody } from '../schemas/error-body.js';
import { guardOf } from '../schemas/guarded.js';
import { faceOf } from './faces.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A request body the handler checks itself rather than through Fastify's
     * Ajv (which would strip and coerce): in the document as the body, never
     * validated by Fastify.
     */
    documentedBody?: TSchema;
  }
}

/**
 * What the /api chain (plugins/) answers before a route's handler runs, so a
 * route never declares it; a route that does declare the status keeps its own.
 */
const CHAIN_ANSWERS: Record<string, TSchema> = {
  403: Type.Object(
    { error: Type.Union([Type.Literal('What are you doing?'), Type.Literal('Access denied')]) },
    { description: "Referer gate: no Referer, or not one of the site's pages" },
  ),
  429: Type.Object(TooManyRequestsBody.properties, { description: 'Rate limit (SECURITY_RATE_LIMIT) reached' }),
  503: Type.Object(ErrorBody.properties, { description: 'Overloaded: retry after the Retry-After seconds' }),
};

const MONITORING = '/api/monitoring';

type Schema = Record<string, unknown>;

/**
 * A route's schema as the document shows it; the route's own schema, which
 * Fastify validates and serialises with, is never changed. A route without
 * tags gets its face's, a body its handler checks is shown as the body (faces.ts), a guarded parameter says its guard's
 * answers, and an /api route lists the chain's answers beside its own.
 */
export function documentedSchema(schema: FastifySchema | undefined, url: string): FastifySchema {
  const { documentedBody, ...own } = schema ?? {};
  const documented: FastifySchema = { ...own };
  if (documentedBody && !documented.body) documented.body = documentedBody;
  const face = faceOf(url);
  if (!documented.tags && face) documented.tags = [face];
  if (documented.querystring) documented.querystring = describeGuards(documented.querystring as Schema);
  if (documented.params) documented.params = describeGuards(documented.params as Schema);
  if (face === 'site-api') documented.response = withChainAnswers(documented.response as Schema | undefined, url);
  return documented;
}

/** Parameters checked by a guard (schemas/guarded.ts) become strings that say what the guard answers. */
function describeGuards(parameters: Schema): Schema {
  const properties = parameters.properties as Record<string, Schema> | undefined;
  if (!properties) return parameters;
  const described: Record<string, Schema> = {};
  for (const [name, property] of Object.entries(properties)) {
    const guard = guardOf(property);
    described[name] = guard
      ? {
          type: 'string',
          description: `Missing: 400 {"error": "${guard.missing}"}; given twice: 400 {"error": "${guard.invalid}"}; otherwise checked, 400 with the check's message when wrong.`,
        }
      : property;
  }
  return { ...parameters, properties: described };
}

function withChainAnswers(response: Schema | undefined, url: string): Schema {
  const answers: Schema = { ...response };
  // Fastify answers any status from a route without response schemas; the document still says 200.
  if (!response) answers[200] = { description: 'The answer, as the capability documents it (docs/)' };
  for (const [status, body] of Object.entries(CHAIN_ANSWERS)) {
    if (status === '429' && url.startsWith(MONITORING)) continue;
    if (!(status in answers)) answers[status] = body;
  }
  return answers;
}
