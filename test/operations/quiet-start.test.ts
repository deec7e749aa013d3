import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { APP_ROOT } from '../../lib/app-root.js';
import { ConfigSchema } from '../../fastify.config.js';
import { freePorts } from '../support/free-ports.js';
import { closedUpstreams } from '../support/real-server.js';

// A terminal colour code, which pino-pretty writes around parts of a line.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

// The budget for `npm start` on a fresh clone offline, before both listeners are up.
const BUDGET = 25;
// Lines this machine's npm prints about its own configuration, whatever the project.
const NPM_OWN_CONFIG = /^npm warn Unknown (user|env|project|global) config /;
// The background refreshes that start just before the listeners, and the status pages' first round, which
// start-up waits for only half a second; their lines are awaited, not timed.
const BACKGROUND = ['RDAP bootstrap', 'TLD list', 'status pages not reached'];

/** Every setting at its default, so a developer's .env (the environment wins over it) changes nothing here. */
function defaults(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ConfigSchema.properties).map(([name, schema]) => [
      name,
      String((schema as unknown as { default: unknown }).default),
    ]),
  );
}

test('npm start on a fresh data folder offline (no keys, every upstream refused) prints at most 25 lines before both listeners are up, none with a stack', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'quiet-start-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const [api, front] = (await freePorts(2)) as [number, number];
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  // The overrides make "offline" the same on every machine; the log is human-readable, as npm start prints it.
  const env = {
    ...inherited,
    ...defaults(),
    ...(await closedUpstreams()),
    DATA_DIR: dataDir,
    BACKEND_PORT: String(api),
    FRONTEND_PORT: String(front),
  };
  // Its own process group, so the server npm starts is stopped with it.
  const npm = spawn('npm', ['start'], { cwd: APP_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exit = once(npm, 'exit');
  const lines: string[] = [];
  let upToFront = -1;
  const seen = new Promise<void>((resolve, reject) => {
    const take = (line: string) => {
      const plain = line.replace(ANSI_COLOUR, '');
      lines.push(plain);
      if (upToFront < 0 && / front listener at /.test(plain)) upToFront = lines.length;
      if (upToFront >= 0 && BACKGROUND.every((what) => lines.some((l) => l.includes(what)))) resolve();
    };
    createInterface({ input: npm.stdout! }).on('line', take);
    createInterface({ input: npm.stderr! }).on('line', take);
    void exit.then(() => reject(new Error(`npm start ended early:\n${lines.join('\n')}`)));
  });
  try {
    await seen;
  } finally {
    process.kill(-npm.pid!, 'SIGTERM');
    await exit;
  }

  const before = lines.slice(0, upToFront).filter((line) => !NPM_OWN_CONFIG.test(line));
  assert.ok(before.length <= BUDGET, `${before.length} lines before both listeners are up:\n${before.join('\n')}`);
  assert.deepEqual(
    lines.filter((line) => /^\s+at |"stack"|^\s+err: /.test(line)),
    [],
    'no stack anywhere',
  );
  const one = (pattern: RegExp) =>
    assert.equal(lines.filter((line) => pattern.test(line)).length, 1, `${pattern}:\n${lines.join('\n')}`);
  one(
    /WARN.*geo databases missing \(GeoLite2-City, GeoLite2-ASN\): \/api\/geo-local answers 503; set GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY/,
  );
  one(/WARN.*AS relationships and AS organisations not downloaded \(connect ECONNREFUSED .*tried again every hour/);
  one(/WARN.*service status: \d+ of \d+ status pages not reached/);
  one(/WARN.*RDAP bootstrap not refreshed from IANA \(connect ECONNREFUSED .*tried again in 24 hours/);
  one(/WARN.*TLD list not refreshed from IANA \(connect ECONNREFUSED .*tried again in 24 hours/);
  one(new RegExp(`INFO.*: API listener on 127\\.0\\.0\\.1:${api} `));
  one(new RegExp(`INFO.*: front listener at http://localhost:${front}/ .*open it in a browser`));
});
