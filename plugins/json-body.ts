import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../lib/json-depth.js';

export const TOO_DEEP = 'JSON body is nested too deeply';

/**
 * JSON bodies are parsed by Fastify's own parser (prototype poisoning refused,
 * the server's body limit), after a check that refuses deep nesting with a
 * 400 instead of a stack overflow later.
 */
export default fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return done(new HttpError(400, TOO_DEEP), undefined);
      parse(request, text, done);
    });
  },
  { name: 'json-body' },
);
