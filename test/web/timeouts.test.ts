import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { once } from 'node:events';
import { startServer, stopServer } from '../support/real-server.js';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../lib/http-server.js';

// The bar: a client that stalls is disconnected within a minute.
const BAR_MS = 60_000;

interface Stalled {
  ms: number;
  answer: string;
}

/** Sends `head` (and no more) on a raw socket and waits until the server closes it, at most the bar. */
async function stall(url: string, head: string): Promise<Stalled> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const start = performance.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.write(head);
  const deadline = setTimeout(() => socket.destroy(new Error(`still open after ${BAR_MS} ms`)), BAR_MS);
  try {
    await once(socket, 'close');
  } finally {
    clearTimeout(deadline);
  }
  if (socket.errored && !answer) throw socket.errored;
  return { ms: performance.now() - start, answer };
}

const slowBody =
  'POST /api/report HTTP/1.1\r\nHost: localhost\r\nReferer: http://localhost/\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"rep';
const slowHeaders = 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';

test('both listeners close a request whose body or headers trickle in: 408 after the request or headers timeout, well within a minute', async () => {
  const server = await startServer({});
  try {
    const [apiBody, frontBody, apiHeaders, frontHeaders] = await Promise.all([
      stall(server.apiUrl, slowBody),
      stall(server.frontUrl, slowBody),
      stall(server.apiUrl, slowHeaders),
      stall(server.frontUrl, slowHeaders),
    ]);
    for (const [name, stalled, limit] of [
      ['API listener, body', apiBody, REQUEST_TIMEOUT_MS],
      ['front listener, body', frontBody, REQUEST_TIMEOUT_MS],
      ['API listener, headers', apiHeaders, HEADERS_TIMEOUT_MS],
      ['front listener, headers', frontHeaders, HEADERS_TIMEOUT_MS],
    ] as const) {
      assert.match(stalled.answer, /^HTTP\/1\.1 408 /, name);
      assert.ok(stalled.ms >= limit - 50 && stalled.ms < BAR_MS, `${name}: closed after ${Math.round(stalled.ms)} ms`);
    }
  } finally {
    await stopServer(server);
  }
});
