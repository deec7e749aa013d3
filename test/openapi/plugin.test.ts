import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import openapi from '../../openapi/index.js';
import { GUARD_KEYWORD, guarded } from '../../schemas/guarded.js';
import { publicIpGuard } from '../../schemas/guards.js';

// Stands for a plugin folder added to a listener later (the command-line face):
// registered after the document's plugin, encapsulated, its own tags.
const laterFace: FastifyPluginAsync = async (app) => {
  app.get(
    '/ip',
    {
      schema: {
        tags: ['command-line'],
        summary: "The caller's address",
        querystring: Type.Object({ ip: Type.Optional(guarded(publicIpGuard)) }),
        response: { 200: Type.String() },
      },
    },
    async () => '192.0.2.1\n',
  );
  app.get('/plain', async () => 'no schema');
};

async function documentOf(register: FastifyPluginAsync) {
  const app = Fastify({ ajv: { customOptions: { keywords: [GUARD_KEYWORD] } } });
  await app.register(openapi);
  await app.register(register);
  await app.ready();
  const res = await app.inject('/openapi.json');
  await app.close();
  return JSON.parse(res.body) as {
    paths: Record<
      string,
      Record<string, { tags?: string[]; summary?: string; parameters?: Array<Record<string, unknown>> }>
    >;
  };
}

test('a route registered after the plugin, in a plugin of its own, is in the document with its tags', async () => {
  const document = await documentOf(laterFace);
  const ip = document.paths['/ip']?.get;
  assert.deepEqual(ip?.tags, ['command-line']);
  assert.equal(ip?.summary, "The caller's address");
  const [parameter] = ip?.parameters ?? [];
  assert.equal(parameter?.name, 'ip');
  assert.equal(parameter?.required, false);
  assert.match(String(parameter?.description), /Missing: 400 \{"error": "No IP address provided"\}/);
  assert.doesNotMatch(JSON.stringify(document), /x-guard/);
  assert.ok(document.paths['/plain']?.get, 'a route without a schema is listed too');
  assert.equal(document.paths['/plain']?.get?.tags, undefined, 'a front route names its own face');
});
