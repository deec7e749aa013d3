import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyPluginAsync } from 'fastify';
import { buildTestApiWith, call } from '../support/app.js';

const routes: FastifyPluginAsync = async (app) => {
  app.get('/t/logs', async (request) => {
    request.log.warn({ step: 1 }, 'first line of this request');
    request.log.child({ part: 'inner' }).info('from a child of the request logger');
    return { level: request.log.level };
  });
  app.get('/t/quiet', async (request) => ({ level: request.log.level }));
};

test('a request that logs gets its request id on every line, children included', async () => {
  const { app, logs } = await buildTestApiWith({ LOG_LEVEL: 'info' }, routes);
  try {
    const res = await call(app, '/api/t/logs');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { level: 'info' });
    const [first] = logs.find('first line of this request');
    const [inner] = logs.find('from a child of the request logger');
    assert.equal(first?.level, 40);
    assert.equal(first?.step, 1);
    assert.match(String(first?.reqId), /^req-/);
    assert.equal(inner?.reqId, first?.reqId);
    assert.equal(inner?.part, 'inner');

    await call(app, '/api/t/logs');
    const ids = logs.find('first line of this request').map((l) => l.reqId);
    assert.equal(new Set(ids).size, 2, 'each request has its own id');
  } finally {
    await app.close();
  }
});

test('a request that does not log reports the level it would log at', async () => {
  const { app } = await buildTestApiWith({ LOG_LEVEL: 'warn' }, routes);
  try {
    assert.deepEqual((await call(app, '/api/t/quiet')).json(), { level: 'warn' });
  } finally {
    await app.close();
  }
});
