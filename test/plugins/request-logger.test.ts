import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { buildTestApiWith, call } from '../support/app.js';

const routes: FastifyPluginAsync = async (app) => {
  app.get('/t/logs', async (request) => {
    request.log.warn({ step: 1 }, 'first line of this request');
    request.log.child({ part: 'inner' }).info('from a child of the request logger');
    return { level: request.log.level };
  });
  app.get('/t/quiet', async (request) => ({ level: request.log.level }));
};

const probe: FastifyPluginAsync = async (app) => {
  app.log.warn({ probe: 1 }, 'from a plugin');
};

const listeners: FastifyPluginAsync = async (app) => {
  app.get('/t/listeners', async (_request, reply) => ({
    finish: reply.raw.listenerCount('finish'),
    error: reply.raw.listenerCount('error'),
  }));
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

test("a plugin's app.log is the service logger", async () => {
  const { app, logs } = await buildTestApiWith({ LOG_LEVEL: 'info' }, probe);
  try {
    const [line] = logs.find('from a plugin');
    assert.equal(line?.level, 40);
    assert.equal(line?.probe, 1);
  } finally {
    await app.close();
  }
});

test('Fastify hangs no listener on a response for request lines that are turned off', async () => {
  const bare = Fastify();
  await bare.register(listeners, { prefix: '/api' });
  const { app } = await buildTestApiWith({ LOG_LEVEL: 'info' }, listeners);
  try {
    const withoutLogger = (await bare.inject('/api/t/listeners')).json();
    assert.deepEqual((await call(app, '/api/t/listeners')).json(), withoutLogger);
  } finally {
    await app.close();
    await bare.close();
  }
});
