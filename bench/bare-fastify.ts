import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Type, type TSchema } from 'typebox';

/**
 * The start-up baseline: a bare Fastify application with the service's
 * routes, path for path and method for method on each listener, each with
 * schemas of the same kinds and sizes (query, path parameters, body, one per
 * answer status) made with TypeBox, and nothing else: no plugin, dataset or
 * upstream client. Written as a plain .mjs file (its schemas as JSON) that
 * `node` runs as it runs dist/server.js, listening on API_PORT and FRONT_PORT;
 * /api/configs answers on both, as the service's front listener hands /api on.
 */

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
type Schema = { type?: string; properties?: Record<string, unknown> };
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

interface BareRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

// Answers the /api chain gives before any route runs, which the document
// lists beside each /api route (openapi/route-schema.ts) but no route compiles.
const CHAIN_ONLY = [
  "Referer gate: no Referer, or not one of the site's pages",
  'Rate limit (SECURITY_RATE_LIMIT) reached',
  'Overloaded: retry after the Retry-After seconds',
  'The answer, as the capability documents it (docs/)',
];

/** An object of `count` optional strings, or a string for a schema that is not an object. */
function shaped(schema: Schema | undefined, count = Object.keys(schema?.properties ?? {}).length): TSchema {
  if (schema && schema.type !== 'object' && count === 0) return Type.String();
  const properties: Record<string, TSchema> = {};
  for (let i = 0; i < count; i++) properties[`field${i}`] = Type.Optional(Type.String());
  return Type.Object(properties);
}

function routeOf(path: string, method: string, operation: Operation): BareRoute {
  const parameters = operation.parameters ?? [];
  const schema: Record<string, unknown> = {};
  const query = parameters.filter((p) => p.in === 'query').length;
  if (query) schema.querystring = shaped(undefined, query);
  const params = parameters.filter((p) => p.in === 'path').length;
  if (params) schema.params = shaped(undefined, params);
  const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
  if (operation.requestBody) schema.body = shaped(body);
  const response: Record<string, TSchema> = {};
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    if (CHAIN_ONLY.includes(answer.description ?? '')) continue;
    const content = Object.values(answer.content ?? {})[0];
    if (content) response[status] = shaped(content.schema);
  }
  if (Object.keys(response).length) schema.response = response;
  return { method: method.toUpperCase(), url: path.replace(/\{([^}]+)\}/g, ':$1'), schema };
}

/** The routes of one listener's document; `skipApi` leaves out the /api routes a front listener hands over. */
function routesOf(document: OpenApiDocument, skipApi: boolean): BareRoute[] {
  const routes: BareRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (skipApi && (path === '/api' || path.startsWith('/api/'))) continue;
    for (const [method, operation] of Object.entries(item)) {
      // Fastify adds a GET route's HEAD itself, as it did for the service.
      if (method === 'head' && 'get' in item) continue;
      routes.push(routeOf(path, method, operation));
    }
  }
  return routes;
}

export interface BareApp {
  file: string;
  routes: number;
  schemas: number;
}

/** Writes the baseline for the service whose listeners documented `api` and `front`. */
export async function writeBareApp(file: string, api: OpenApiDocument, front: OpenApiDocument): Promise<BareApp> {
  const apiRoutes = routesOf(api, false);
  const frontRoutes = routesOf(front, true);
  const configs = apiRoutes.find((r) => r.url === '/api/configs' && r.method === 'GET');
  if (!configs) throw new Error('the API document has no GET /api/configs');
  frontRoutes.push(configs);
  const fastify = pathToFileURL(createRequire(import.meta.url).resolve('fastify')).href;
  await writeFile(
    file,
    `import Fastify from ${JSON.stringify(fastify)};
const LISTENERS = ${JSON.stringify([apiRoutes, frontRoutes])};
const ports = [Number(process.env.API_PORT), Number(process.env.FRONT_PORT)];
for (const [i, routes] of LISTENERS.entries()) {
  const app = Fastify();
  for (const route of routes) app.route({ ...route, handler: async () => ({}) });
  await app.listen({ port: ports[i], host: '127.0.0.1' });
}
`,
  );
  const schemas = [...apiRoutes, ...frontRoutes].reduce(
    (n, r) =>
      n +
      ['querystring', 'params', 'body'].filter((k) => k in r.schema).length +
      Object.keys((r.schema.response as object | undefined) ?? {}).length,
    0,
  );
  return { file, routes: apiRoutes.length + frontRoutes.length, schemas };
}
