import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { GUARD_KEYWORD, getGuard } from '../schemas/guards.js';

type Part = 'query' | 'params';
const PARTS: ReadonlyArray<[Part, 'querystring' | 'params']> = [
  ['query', 'querystring'],
  ['params', 'params'],
];

interface GuardedField {
  part: Part;
  name: string;
  guard: string;
}

function guardedFields(request: FastifyRequest): GuardedField[] {
  const schema = request.routeOptions.schema as Record<string, { properties?: Record<string, Record<string, unknown>> }> | undefined;
  const fields: GuardedField[] = [];
  for (const [part, key] of PARTS) {
    for (const [name, prop] of Object.entries(schema?.[key]?.properties ?? {})) {
      const guard = prop[GUARD_KEYWORD];
      if (typeof guard === 'string') fields.push({ part, name, guard });
    }
  }
  return fields;
}

/**
 * Applies the guards a route's schema names (see schemas/guards.ts), in
 * declaration order: 400 with the guard's exact string, or the normalised
 * value written back in place for the handler.
 */
export default fp(
  async (app) => {
    const cache = new WeakMap<object, GuardedField[]>();
    app.addHook('preHandler', async (request, reply) => {
      const key = request.routeOptions.schema ?? {};
      let fields = cache.get(key);
      if (!fields) cache.set(key, (fields = guardedFields(request)));
      for (const { part, name, guard: guardName } of fields) {
        const guard = getGuard(guardName);
        if (!guard) throw new Error(`Unknown guard ${guardName}`);
        const values = request[part] as Record<string, unknown>;
        const value = values[name];
        if (value === undefined || value === '') return reply.code(400).send({ error: guard.missing });
        if (typeof value !== 'string') return reply.code(400).send({ error: guard.invalid });
        const checked = guard.check(value);
        if (typeof checked !== 'string') return reply.code(400).send({ error: checked.error });
        values[name] = checked;
      }
    });
  },
  { name: 'guards' },
);
