import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

test('the document goes in the coding the client accepts best, the same JSON in each, and says it varies on that', async () => {
  const app = Fastify({ ajv: { customOptions: { keywords: [GUARD_KEYWORD] } } });
  await app.register(openapi);
  await app.register(laterFace);
  await app.ready();
  const plain = await app.inject('/openapi.json');
  const br = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
  const gz = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip;q=1, br;q=0.5' } });
  const refused = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
  await app.close();
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(refused.headers['content-encoding'], undefined);
  for (const res of [plain, br, gz, refused]) assert.equal(res.headers.vary, 'accept-encoding');
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
  assert.equal(refused.body, plain.body);
  assert.ok(br.rawPayload.length < plain.rawPayload.length, 'brotli makes it smaller');
});
