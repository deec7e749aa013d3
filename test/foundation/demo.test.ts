import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequests } from '../support/example-requests.js';

const REQUESTS = exampleRequests();

test('with every upstream faked (npm run demo), every route answers 2xx after start-up', async () => {
  const { app, close } = await bootOnAllFakes();
  try {
    const failed: string[] = [];
    for (const request of REQUESTS) {
      const res = await call(app, request);
      if (res.statusCode >= 300) failed.push(`${request.method ?? 'GET'} ${request.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    const id = (await call(app, REQUESTS.find((r) => r.url === '/api/report')!)).json<{ id: string }>().id;
    const back = await call(app, `/api/report/${id}`);
    if (back.statusCode !== 200) failed.push(`GET /api/report/:id: ${back.statusCode}`);
    assert.deepEqual(failed, []);
  } finally {
    await close();
  }
});
