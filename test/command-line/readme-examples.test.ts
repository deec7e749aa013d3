import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../lib/app-root.js';
import { startServer, stopServer, type Running } from '../support/real-server.js';
import { asnDatabase, cityDatabase } from '../support/sample-geo-databases.js';

const run = promisify(execFile);
// The address the README's examples are written for: the front listener's default, as a visitor types it.
const README_HOST = 'localhost:18966';

interface Example {
  command: string;
  output: string;
}

/** The README's "From a terminal" examples: each `$ ` line and the lines it prints, up to the next. */
async function readmeExamples(): Promise<Example[]> {
  const readme = await readFile(join(APP_ROOT, 'README.md'), 'utf8');
  const section = /^## From a terminal\n([\s\S]*?)^## /m.exec(readme)?.[1];
  assert.ok(section, 'the README has a "From a terminal" section');
  const block = /```console\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'with a console block');
  const examples: Example[] = [];
  for (const line of block.split('\n').filter(Boolean)) {
    if (line.startsWith('$ ')) examples.push({ command: line.slice(2), output: '' });
    else examples.at(-1)!.output += `${line}\n`;
  }
  return examples;
}

let server: Running;
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readme-curl-'));
  await mkdir(join(dir, 'geo'));
  await mkdir(join(dir, 'site'));
  await writeFile(join(dir, 'geo', 'GeoLite2-City.mmdb'), cityDatabase());
  await writeFile(join(dir, 'geo', 'GeoLite2-ASN.mmdb'), asnDatabase());
  await writeFile(join(dir, 'site', 'index.html'), '<!doctype html><title>The site</title>');
  server = await startServer({ DATA_DIR: dir, FRONTEND_DIR: join(dir, 'site'), GEODB_AUTO_UPDATE: 'false' });
});
after(async () => {
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
});

test("the README's curl examples, run as printed with the real curl against the running service, print what it says", async () => {
  const examples = await readmeExamples();
  assert.ok(examples.length >= 3, 'a few examples');
  const host = new URL(server.frontUrl).host;
  for (const { command, output } of examples) {
    assert.ok(command.startsWith('curl '), command);
    assert.ok(command.includes(README_HOST), `${command}: names the front listener as ${README_HOST}`);
    // Only the host changes: the test's service listens on a free port.
    const { stdout } = await run('sh', ['-c', command.replaceAll(README_HOST, host)], { timeout: 60_000 });
    assert.equal(stdout, output, command);
  }
});
