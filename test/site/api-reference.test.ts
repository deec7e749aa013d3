import assert from 'node:assert/strict';
import test from 'node:test';
import {
  readableJson,
  readReference,
  simplified,
  typeLabel,
} from '../../web/site/src/features/reference/api-reference.js';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'netdiag-backend', version: '1.2.3', description: 'All routes.' },
  tags: [
    { name: 'command-line', description: 'For scripts.', 'x-stability': 'stable' },
    { name: 'site-api', description: "The site's own.", 'x-stability': 'subject to change' },
    { name: 'unused', description: 'No routes.', 'x-stability': 'stable' },
  ],
  paths: {
    '/api/asn-radar': {
      get: {
        tags: ['site-api'],
        summary: 'Radar views',
        parameters: [
          {
            in: 'query',
            name: 'view',
            required: true,
            schema: { type: 'string', enum: ['asn', 'outages'] },
            example: 'asn',
          },
          { in: 'query', name: 'asn', required: false, schema: { type: 'integer' }, description: 'The AS number' },
        ],
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
      post: { tags: ['site-api'], responses: { 403: { description: 'gate' }, 405: { description: 'Method' } } },
      put: { tags: ['site-api'], responses: { 405: { description: 'Method' } } },
    },
    '/ip': {
      get: {
        tags: ['command-line'],
        responses: { 200: { description: 'The address', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/api/report': {
      post: {
        tags: ['site-api'],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { 201: { description: 'Stored' } },
      },
    },
    '/untagged': { get: { responses: {} }, query: { responses: {} } },
  },
};

test('operations are grouped by their first tag in the tags’ order, untagged ones last, empty faces left out', () => {
  const reference = readReference(DOCUMENT);
  assert.ok(reference);
  assert.deepEqual(
    reference.faces.map((face) => [face.name, face.stability, face.operations.map((o) => `${o.method} ${o.path}`)]),
    [
      ['command-line', 'stable', ['GET /ip']],
      ['site-api', 'changing', ['GET /api/asn-radar', 'POST /api/report']],
      ['', 'unstated', ['GET /untagged']],
    ],
  );
  assert.deepEqual([reference.title, reference.version, reference.openapi], ['netdiag-backend', '1.2.3', '3.1.0']);
});

test('an operation carries its parameters, body and answers; methods only refused are folded into the served one', () => {
  const faces = readReference(DOCUMENT)!.faces;
  const radar = faces[1]!.operations[0]!;
  assert.equal(radar.id, 'get-api-asn-radar');
  assert.equal(radar.summary, 'Radar views');
  assert.deepEqual(radar.parameters, [
    { name: 'view', in: 'query', required: true, type: '"asn" | "outages"', description: '', example: 'asn' },
    { name: 'asn', in: 'query', required: false, type: 'integer', description: 'The AS number', example: '' },
  ]);
  // In the specification's order of a path item's methods.
  assert.deepEqual(radar.refused, ['PUT', 'POST']);
  assert.deepEqual(radar.answers, [
    { status: '200', description: 'OK', mediaType: 'application/json', schema: '{"type": "object"}' },
  ]);
  const report = faces[1]!.operations[1]!;
  assert.equal(report.body?.mediaType, 'application/json');
  assert.deepEqual(report.answers, [{ status: '201', description: 'Stored', mediaType: '', schema: '' }]);
  assert.equal(faces[0]!.operations[0]!.answers[0]!.mediaType, 'text/plain');
});

test('what is no OpenAPI document reads as null, odd fields as nothing', () => {
  for (const odd of [null, 'text', [], {}, { openapi: 3, paths: {} }, { openapi: '3.1.0' }]) {
    assert.equal(readReference(odd), null, JSON.stringify(odd));
  }
  const reference = readReference({ openapi: '3.1.0', paths: { '/x': { get: { parameters: 'no', responses: [] } } } });
  assert.deepEqual(reference?.faces[0]?.operations[0]?.parameters, []);
  assert.deepEqual(reference?.faces[0]?.operations[0]?.answers, []);
});

test('a type label says a parameter’s type in a few words', () => {
  assert.equal(typeLabel({ type: 'string' }), 'string');
  assert.equal(typeLabel({ type: 'string', format: 'ipv4' }), 'string (ipv4)');
  assert.equal(typeLabel({ anyOf: [{ type: 'string' }, { type: 'null' }] }), 'string | null');
  assert.equal(typeLabel({ type: ['integer', 'null'] }), 'integer | null');
  assert.equal(typeLabel({ type: 'array', items: { const: 'A' } }), '"A"[]');
  assert.equal(typeLabel({}), '');
});

test('a schema reads as indented JSON, a nullable bare type as one type list, what fits in 60 characters on one line', () => {
  const schema = {
    type: 'object',
    required: ['ip', 'city'],
    properties: {
      ip: { type: 'string', pattern: '^[0-9]{1,3}(,|:)$' },
      city: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Town' },
      either: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
    },
  };
  assert.equal(
    readableJson(simplified(schema)),
    [
      '{',
      '  "type": "object",',
      '  "required": ["ip", "city"],',
      '  "properties": {',
      '    "ip": {"type": "string", "pattern": "^[0-9]{1,3}(,|:)$"},',
      '    "city": {"type": ["string", "null"], "description": "Town"},',
      '    "either": {',
      '      "anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]',
      '    }',
      '  }',
      '}',
    ].join('\n'),
  );
});
