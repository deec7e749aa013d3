import AjvCompiler, { type RouteDefinition } from '@fastify/ajv-compiler';

type FromPool = ReturnType<typeof AjvCompiler>;
/** A validator as Fastify calls it: the result, then `errors` when it is false; with `schemaEnv`, Ajv may replace a root value. */
type Validate = ((data: unknown, context?: object) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * Fastify's own validator factory (Ajv, with the instance's `ajv` options),
 * each validator compiled when it first checks a request: Fastify compiles
 * every route's querystring, params and body validators before the listeners
 * open, the largest piece of start-up left (bench/results/2026-11-29-stop-38.md),
 * while a process's first requests ask a few routes. What a validator checks
 * and answers is unchanged; its first request compiles it. One factory per
 * Fastify instance, as Fastify's default is.
 */
export function validatorsOnUse(): FromPool {
  const fromPool = AjvCompiler();
  return (externalSchemas, options) => {
    // The package's types give the compiler Ajv's own signature; Fastify hands it the route's definition.
    const compile = fromPool(externalSchemas, options) as unknown as (route: RouteDefinition) => Validate;
    const onUse = (route: RouteDefinition): Validate => {
      let validate: Validate | undefined;
      const compiled = () => (validate ??= compile(route));
      const check: Validate = (data, context) => {
        const checked = compiled();
        const result = checked(data, context);
        check.errors = checked.errors;
        return result;
      };
      // Fastify reads it before each call: the first request compiles here.
      Object.defineProperty(check, 'schemaEnv', { get: () => compiled().schemaEnv });
      return check;
    };
    return onUse as unknown as ReturnType<FromPool>;
  };
}
