import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { foldTypeUnions } from '../../lib/response-serializer.js';
import { Nullable } from '../../schemas/nullable.js';
import { buildTestApiWith, call } from '../support/app.js';

test('foldTypeUnions writes T | null as a type list and keeps the member keywords', () => {
  const schema = Type.Object({
    code: Nullable(Type.String({ pattern: '^[A-Z]{2}$' })),
    place: Nullable(Type.Object({ lat: Type.Number() })),
    mixed: Type.Union([Type.Boolean(), Type.Number(), Type.String(), Type.Null()]),
  });
  const folded = foldTypeUnions(schema) as { properties: Record<string, Record<string, unknown>> };
  assert.deepEqual(folded.properties.code, { type: ['string', 'null'], pattern: '^[A-Z]{2}$' });
  assert.deepEqual(folded.properties.place!.type, ['object', 'null']);
  assert.deepEqual(folded.properties.place!.properties, { lat: { type: 'number' } });
  assert.deepEqual(folded.properties.mixed, { type: ['boolean', 'number', 'string', 'null'] });
  assert.ok(
    Array.isArray((schema.properties.code as { anyOf?: unknown }).anyOf),
    'the route schema itself is left as it was',
  );
});

test('foldTypeUnions leaves unions it cannot fold', () => {
  const literals = Type.Union([Type.Literal('none'), Type.Literal('minor')]);
  assert.deepEqual(foldTypeUnions(literals), JSON.parse(JSON.stringify(literals)));
  const twoStrings = Type.Union([Type.String({ format: 'date' }), Type.String({ pattern: 'x' })]);
  assert.deepEqual(foldTypeUnions(twoStrings), JSON.parse(JSON.stringify(twoStrings)));
  const twoObjects = Type.Union([Type.Object({ a: Type.String() }), Type.Array(Type.String())]);
  assert.deepEqual(foldTypeUnions(twoObjects), JSON.parse(JSON.stringify(twoObjects)));
});

test('a response with nullable fields is written the same as with the unions', async () => {
  const Body = Type.Object({
    name: Nullable(Type.String()),
    count: Nullable(Type.Integer()),
    place: Nullable(Type.Object({ lat: Type.Number() }, { additionalProperties: false })),
    state: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  });
  const bodies = [
    { name: 'x', count: 3, place: { lat: 1.5 }, state: 'up' },
    { name: null, count: null, place: null, state: 'down' },
  ];
  const routes: FastifyPluginAsync = async (app) => {
    app.get<{ Querystring: { i: string } }>(
      '/t/nullable',
      { schema: { response: { 200: Body } } },
      async (request) => bodies[Number(request.query.i)],
    );
  };
  const { app } = await buildTestApiWith({}, routes);
  try {
    for (const [i, body] of bodies.entries()) {
      const res = await call(app, `/api/t/nullable?i=${i}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, JSON.stringify(body));
    }
  } finally {
    await app.close();
  }
});
