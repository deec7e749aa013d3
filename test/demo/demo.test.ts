import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequests } from '../support/example-requests.js';

test('with every upstream faked (npm run demo), every example request answers 2xx after start-up (or the status it names)', async () => {
  const { app, close } = await bootOnAllFakes();
  try {
    const failed: string[] = [];
    for (const request of exampleRequests()) {
      const res = await call(app, request);
      const answered =
        request.status === undefined
          ? res.statusCode >= 200 && res.statusCode < 300
          : res.statusCode === request.status;
      if (!answered) {
        failed.push(`${request.method ?? 'GET'} ${request.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    assert.deepEqual(failed, []);
  } finally {
    await close();
  }
});
