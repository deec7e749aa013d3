import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigOptions, Results } from '@cloudflare/speedtest';
import { startRun, STALL_MS, type Engine, type Failure } from '../../web/site/src/features/speed/run.js';

/** An engine that does what the test tells it to, and says what it was told by the run. */
class FakeEngine implements Engine {
  config: ConfigOptions;
  playing = false;
  bandwidth: number | undefined;
  readonly results = {
    getDownloadBandwidth: () => {
      if (this.bandwidth === undefined) throw new Error('no measurement yet');
      return this.bandwidth;
    },
  } as unknown as Results;
  onResultsChange: Engine['onResultsChange'] = () => {};
  onFinish: Engine['onFinish'] = () => {};
  onError: Engine['onError'] = () => {};
  constructor(config: ConfigOptions) {
    this.config = config;
  }
  play() {
    this.playing = true;
  }
  pause() {
    this.playing = false;
  }
}

function run(target: 'server' | 'cloudflare' = 'server') {
  let engine!: FakeEngine;
  const seen: { progress: string[]; finished: number | null; failed: Failure | null } = {
    progress: [],
    finished: null,
    failed: null,
  };
  const handle = startRun(
    (config) => (engine = new FakeEngine(config)),
    target,
    { down: 10_000_000, up: 1_000_000 },
    {
      progress: (phase, figures) => seen.progress.push(`${phase} ${figures.downloadMbps}`),
      finished: (figures) => (seen.finished = figures.downloadMbps),
      failed: (failure) => (seen.failed = failure),
    },
  );
  return { engine, seen, handle };
}

test('a run asks the engine for this server or Cloudflare, and never for the results log', () => {
  const { engine } = run();
  assert.equal(engine.playing, true);
  assert.equal(engine.config.downloadApiUrl, '/speed/down');
  assert.equal(engine.config.uploadApiUrl, '/speed/up');
  assert.equal(engine.config.logAimApiUrl, null);
  assert.equal(engine.config.logMeasurementApiUrl, null);
  assert.equal(run('cloudflare').engine.config.downloadApiUrl, 'https://speed.cloudflare.com/__down');
});

test('progress follows each measurement; the end gives the figures', () => {
  const { engine, seen } = run();
  engine.onResultsChange({ type: 'latency' });
  engine.bandwidth = 93_000_000;
  engine.onResultsChange({ type: 'download' });
  engine.onFinish(engine.results);
  assert.deepEqual(seen.progress, ['latency null', 'download 93']);
  assert.equal(seen.finished, 93);
  assert.equal(seen.failed, null);
});

test('an error answer, a failed request and a run that measured nothing are failures of their own kind', () => {
  const refused = run();
  refused.engine.onError('Request failed with 500', 500);
  assert.deepEqual(refused.seen.failed, { kind: 'http', status: 500 });
  assert.equal(refused.engine.playing, false);

  const unreachable = run();
  unreachable.engine.onError('Connection failed to /speed/down.');
  assert.deepEqual(unreachable.seen.failed, { kind: 'network' });

  const empty = run();
  empty.engine.onFinish(empty.engine.results);
  assert.deepEqual(empty.seen.failed, { kind: 'empty' });
  assert.equal(empty.seen.finished, null);
});

test('a run with nothing finishing for STALL_MS is stopped as a timeout; progress restarts the wait', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { engine, seen } = run();
  t.mock.timers.tick(STALL_MS - 1);
  engine.onResultsChange({ type: 'latency' });
  t.mock.timers.tick(STALL_MS - 1);
  assert.equal(seen.failed, null);
  t.mock.timers.tick(1);
  assert.deepEqual(seen.failed, { kind: 'timeout' });
  assert.equal(engine.playing, false);
  // What the engine says after the run was given up is not heard.
  engine.onFinish(engine.results);
  assert.equal(seen.finished, null);
});

test('stop pauses the engine and reports nothing more', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { engine, seen, handle } = run();
  handle.stop();
  assert.equal(engine.playing, false);
  t.mock.timers.tick(STALL_MS * 2);
  engine.onError('late', 500);
  assert.equal(seen.failed, null);
});
