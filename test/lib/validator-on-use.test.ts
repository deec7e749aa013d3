import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import type { Ajv } from '@fastify/ajv-compiler';
import { Type } from 'typebox';
import { validatorsOnUse } from '../../lib/validator-on-use.js';

/** A Fastify app as app.ts builds its validators, with one route, counting what its Ajv compiles. */
async function appCounting() {
  const compiled: string[] = [];
  const app = Fastify({
    ajv: {
      onCreate: (ajv: Ajv) => {
        const compile = ajv.compile.bind(ajv);
        ajv.compile = ((schema: Parameters<Ajv['compile']>[0]) => {
          compiled.push(JSON.stringify(schema));
          return compile(schema);
        }) as Ajv['compile'];
      },
    },
    schemaController: { compilersFactory: { buildValidator: validatorsOnUse() } },
  });
  const query = Type.Object({ n: Type.Integer({ minimum: 1 }) });
  app.get('/count', { schema: { querystring: query } }, async (request) => request.query);
  app.post('/echo', { schema: { body: Type.Object({ word: Type.String() }) } }, async (request) => request.body);
  await app.ready();
  return { app, compiled };
}

test('a route validator is compiled by its first request, not before the app is ready, and checks as Fastify does', async (t) => {
  const { app, compiled } = await appCounting();
  t.after(() => app.close());
  assert.deepEqual(compiled, [], 'nothing compiled at ready');

  const good = await app.inject('/count?n=3');
  assert.deepEqual([good.statusCode, good.json()], [200, { n: 3 }], 'coerced as before');
  assert.equal(compiled.length, 1, 'the querystring validator, once');

  const bad = await app.inject('/count?n=0');
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().message, 'querystring/n must be >= 1');
  assert.equal(compiled.length, 1, 'not compiled again');

  const body = await app.inject({ method: 'POST', url: '/echo', payload: {} });
  assert.deepEqual([body.statusCode, body.json().message], [400, "body must have required property 'word'"]);
  assert.equal(compiled.length, 2);
});
