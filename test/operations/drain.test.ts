import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { request } from 'undici';
import { FakeUpstream } from '../support/fake-upstream.js';
import { startServer } from '../support/real-server.js';

const REFERER = { referer: 'http://localhost/' };
// Long enough to see the listeners still serving after the signal on a busy machine.
const DRAIN_MS = 3000;

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { headers });
  await res.body.dump();
  return res.statusCode;
}

/** Polls until a log message matching `pattern` is in the server's log. */
async function logged(server: Awaited<ReturnType<typeof startServer>>, pattern: RegExp): Promise<void> {
  while (!server.lines.some((line) => pattern.test(String(line.msg)))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('SIGTERM: /readyz answers 503 at once, both listeners serve through the drain, a request in flight finishes, exit 0', async (t) => {
  const fake = await FakeUpstream.start();
  t.after(() => fake.close());
  // The repository's star count, held by the fake until the test lets it go: a request in flight across the drain and the close.
  let held: ServerResponse | undefined;
  const arrived = new Promise<void>((resolve) => {
    fake.on('GET', 'api.github.com', /^\/repos\//, (_req, res) => {
      held = res;
      resolve();
    });
  });
  const server = await startServer({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    UPSTREAM_TIMEOUT_MS: '60000',
    REPO_STARS_REPOSITORY: 'o/r',
  });
  t.after(() => server.child.kill('SIGKILL'));
  while ((await status(`${server.frontUrl}/readyz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 50));

  const inFlight = request(`${server.frontUrl}/api/repo-stars`, { headers: REFERER });
  await arrived;
  server.child.kill('SIGTERM');
  await logged(server, /^draining/);

  // Not ready on either listener, though both still answer, on new connections too.
  assert.equal(await status(`${server.apiUrl}/readyz`), 503);
  assert.equal(await status(`${server.frontUrl}/readyz`), 503);
  const during = await request(`${server.frontUrl}/api/configs`, { headers: REFERER });
  assert.equal(during.statusCode, 200);
  assert.equal(during.headers.connection, 'close', 'a keep-alive client is sent elsewhere');
  await during.body.dump();
  assert.equal(await status(`${server.frontUrl}/healthz`), 200);
  assert.equal(await status(`${server.apiUrl}/healthz`), 200);

  // The drain ends and the listeners close, waiting for the request still in flight.
  await logged(server, /^shutting down/);
  held!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stargazers_count: 42 }));
  const answer = await inFlight;
  assert.equal(answer.statusCode, 200);
  assert.match(await answer.body.text(), /42/);

  const [code] = await server.exit;
  assert.equal(code, 0, server.text.join('\n'));
});

test('SIGINT (Ctrl-C in a terminal) stops at once, without the drain', async () => {
  const server = await startServer({ SHUTDOWN_DRAIN_MS: '60000' });
  while ((await status(`${server.frontUrl}/readyz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
  server.child.kill('SIGINT');
  const [code] = await server.exit;
  assert.equal(code, 0);
  assert.ok(!server.lines.some((line) => /^draining/.test(String(line.msg))));
});
