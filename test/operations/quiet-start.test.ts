import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from '../../lib/app-root.js';
import { closedUpstreams, startServer, stopServer } from '../support/real-server.js';

// The budget for `npm start` on a fresh clone offline, before both listeners are up.
const BUDGET = 25;
// What npm itself prints first: a blank line, "> name@version script", the
// command and a blank line for each of prestart, the build it runs, and start.
const NPM_LINES = 3 * 4;

test('npm start runs prestart (the build) and start, as NPM_LINES counts', async () => {
  const { scripts } = JSON.parse(await readFile(join(APP_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.deepEqual([scripts.prestart, scripts.start, scripts.prebuild, scripts.poststart], ['npm run build', 'node dist/server.js', undefined, undefined]);
});

test('a fresh start offline (no keys, no datasets, every upstream refused) fits the budget: one line per expected failure, no stack', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'quiet-start-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // Human-readable, as npm start prints; the overrides make "offline" the same on every machine.
  const server = await startServer({ ...(await closedUpstreams()), LOG_FORMAT: '', LOG_LEVEL: 'info', DATA_DIR: dataDir });
  // The RDAP and TLD-list refreshes run in the background from just before the listeners start; their lines are awaited, not timed.
  const background = () => ['RDAP bootstrap', 'TLD list'].every((what) => server.text.some((line) => line.includes(what)));
  for (let waited = 0; !background() && waited < 20_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(await stopServer(server), 0);
  const plain = server.text.map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''));
  const upToFront = plain.findIndex((line) => / front listener at /.test(line)) + 1;
  assert.ok(upToFront > 0, plain.join('\n'));
  const before = plain.slice(0, upToFront);
  assert.ok(before.length <= BUDGET - NPM_LINES, `${before.length} lines before both listeners are up:\n${before.join('\n')}`);

  assert.deepEqual(plain.filter((line) => /^\s+at |"stack"|^\s+err: /.test(line)), [], 'no stack anywhere');
  assert.equal(server.stderr(), '');
  const one = (pattern: RegExp) => assert.equal(plain.filter((line) => pattern.test(line)).length, 1, `${pattern}:\n${plain.join('\n')}`);
  one(/WARN.*geo databases missing \(GeoLite2-City, GeoLite2-ASN\): \/api\/geo-local answers 503; set GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY/);
  one(/WARN.*AS relationships and AS organisations not downloaded \(connect ECONNREFUSED .*tried again every hour/);
  one(/WARN.*service status: \d+ of \d+ status pages not reached/);
  one(/WARN.*RDAP bootstrap not refreshed from IANA \(connect ECONNREFUSED .*tried again in 24 hours/);
  one(/WARN.*TLD list not refreshed from IANA \(connect ECONNREFUSED .*tried again in 24 hours/);
  one(/INFO.*: API listener at http:\/\/127\.0\.0\.1:\d+ /);
  one(/INFO.*: front listener at http:\/\/127\.0\.0\.1:\d+ .*open http:\/\/localhost:\d+\//);
});
