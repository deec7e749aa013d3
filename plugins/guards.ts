import fp from 'fastify-plugin';
import type { preValidationHookHandler } from 'fastify';
import { applyGuard, guardOf, type Guard } from '../schemas/guarded.js';

type Part = 'query' | 'params';
const PARTS: ReadonlyArray<[Part, 'querystring' | 'params']> = [
  ['query', 'querystring'],
  ['params', 'params'],
];

interface GuardedField {
  part: Part;
  name: string;
  guard: Guard;
}

type Schema = Record<string, { properties?: Record<string, Record<string, unknown>> } | undefined> | undefined;

function guardedFields(schema: Schema): GuardedField[] {
  const fields: GuardedField[] = [];
  for (const [part, key] of PARTS) {
    for (const [name, prop] of Object.entries(schema?.[key]?.properties ?? {})) {
      const guard = guardOf(prop);
      if (guard) fields.push({ part, name, guard });
    }
  }
  return fields;
}

/**
 * Applies the guards a route's schema carries (see schemas/guarded.ts), in
 * declaration order: 400 with the guard's exact string, or the normalised
 * value written back in place for the handler. Only a route with a guarded
 * parameter gets the hook, added when the route is declared. It is a
 * preValidation hook, after the global Referer gate: a guarded parameter is
 * required, and its answer must be the guard's string, not Ajv's message.
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const fields = guardedFields(route.schema as Schema);
      if (fields.length === 0) return;
      const hook: preValidationHookHandler = (request, reply, done) => {
        for (const { part, name, guard } of fields) {
          const values = request[part] as Record<string, unknown>;
          const checked = applyGuard(guard, values[name]);
          if (typeof checked !== 'string') return void reply.code(400).send(checked);
          values[name] = checked;
        }
        done();
      };
      const own =
        route.preValidation === undefined
          ? []
          : Array.isArray(route.preValidation)
            ? route.preValidation
            : [route.preValidation];
      route.preValidation = [...own, hook];
    });
  },
  { name: 'guards' },
);
