import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startServer, stopServer } from '../support/real-server.js';

/** The first http address the server printed among its listeners' lines. */
function firstAddress(lines: Array<Record<string, unknown>>): string | undefined {
  const listening = lines.filter((l) => / listener /.test(String(l.msg))).map((l) => String(l.msg));
  return listening.join('\n').match(/https?:\/\/[^\s),]+/)?.[0];
}

for (const host of ['::', '0.0.0.0']) {
  test(`HOST=${host}: the first address printed is http://localhost:<port>/, which a browser opens`, async () => {
    const server = await startServer({ HOST: host, LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    try {
      const port = new URL(server.frontUrl).port;
      assert.equal(firstAddress(server.lines), `http://localhost:${port}/`);
      const page = await request(`http://localhost:${port}/`);
      await page.body.dump();
      // The site is not built here: the front listener says so with a 503 page; the address answers all the same.
      assert.ok([200, 503].includes(page.statusCode), `the page: ${page.statusCode}`);
    } finally {
      await stopServer(server);
    }
  });
}
