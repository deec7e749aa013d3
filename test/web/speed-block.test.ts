import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

const MB = 1024 * 1024;

test('the download block is made at the first download, not when the module loads', async () => {
  const before = process.memoryUsage().arrayBuffers;
  const { sendRandomBytes } = await import('../../web/speed/random-bytes.js');
  assert.ok(process.memoryUsage().arrayBuffers - before < MB / 2, 'loading the module took no megabyte');

  const server = createServer((_req, res) => sendRandomBytes(res, 3 * MB + 5));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const req = request({ host: '127.0.0.1', port, path: '/' });
    req.end();
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    let received = 0;
    for await (const chunk of res) received += (chunk as Buffer).length;
    assert.equal(received, 3 * MB + 5);
    assert.ok(process.memoryUsage().arrayBuffers - before >= MB, 'the block is held once made');
  } finally {
    server.close();
  }
});
