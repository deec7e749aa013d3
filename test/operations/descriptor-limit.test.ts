import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { closedUpstreams, startServer, stopServer } from '../support/real-server.js';
import { idleConnections, openDescriptors, statusWithin, watchExit } from '../support/descriptors.js';

// Small, so the load that passes it stays small on a shared machine.
const LIMIT = 256;
// More than the whole limit on each listener.
const IDLE_PER_LISTENER = LIMIT + 100;
// The load shedder samples every second: several samples see the load.
const HELD_MS = 4000;

test('more idle connections than the open-files limit on both listeners: refused past the cap, the process lives, /healthz 200 after', async (t) => {
  // Load shedding on, as in production: its sampler is what died of EMFILE.
  const server = await startServer({ ...(await closedUpstreams()), LOAD_SHEDDING: 'true' }, { nofile: LIMIT });
  const state = watchExit(server);
  t.after(() => (state.exited ? undefined : stopServer(server)));
  const pid = server.child.pid!;

  const sockets = [
    ...(await idleConnections(server.frontUrl, IDLE_PER_LISTENER)),
    ...(await idleConnections(server.apiUrl, IDLE_PER_LISTENER)),
  ];
  let mostDescriptors = 0;
  try {
    const end = Date.now() + HELD_MS;
    while (Date.now() < end && !state.exited) {
      mostDescriptors = Math.max(mostDescriptors, openDescriptors(pid));
      await sleep(100);
    }
    assert.ok(!state.exited, `the process exited under the load:\n${server.stderr()}`);
    assert.ok(mostDescriptors < LIMIT, `at most ${mostDescriptors} descriptors open, under the limit of ${LIMIT}`);
  } finally {
    for (const socket of sockets) socket.destroy();
  }

  assert.equal(await statusWithin(`${server.frontUrl}/healthz`, 10_000), 200);
  assert.equal(await statusWithin(`${server.apiUrl}/healthz`, 10_000), 200);
  assert.ok(!state.exited);

  // One warning per listener while it refused (not one per connection), naming the fix.
  const warnings = server.lines.filter(
    (line) => line.msg === 'listener at its connection cap: new connections refused',
  );
  assert.deepEqual(warnings.map((line) => line.listener).sort(), ['api', 'front']);
  for (const warning of warnings) {
    assert.equal(warning.level, 40);
    assert.equal(warning.openFilesLimit, LIMIT);
    assert.match(String(warning.fix), /LimitNOFILE/);
  }
});
