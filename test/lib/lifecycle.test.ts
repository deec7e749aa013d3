import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { BOOT_PHASES, Lifecycle } from '../../lib/lifecycle.js';
import { LogCapture } from '../support/app.js';

test('start-up steps run in the spec’s phase order, whatever order they were added in', async () => {
  const lifecycle = new Lifecycle(pino({ level: 'silent' }));
  const ran: string[] = [];
  const step = (phase: (typeof BOOT_PHASES)[number], name: string) =>
    lifecycle.addStep({ phase, name, run: async () => void ran.push(name) });
  step('background', 'poller');
  step('service-status', 'prime status');
  step('asn-datasets', 'as-rel');
  step('geo-databases', 'geo');
  step('background', 'watcher');
  await lifecycle.boot();
  assert.deepEqual(BOOT_PHASES, ['geo-databases', 'asn-datasets', 'service-status', 'background']);
  assert.deepEqual(ran, ['geo', 'as-rel', 'prime status', 'poller', 'watcher']);
});

test('a failing step is logged and the next one still runs', async () => {
  const logs = new LogCapture();
  const lifecycle = new Lifecycle(pino({ level: 'debug' }, logs));
  const ran: string[] = [];
  lifecycle.addStep({
    phase: 'geo-databases',
    name: 'geo',
    run: async () => {
      throw new Error('download failed');
    },
  });
  lifecycle.addStep({ phase: 'asn-datasets', name: 'asn', run: async () => void ran.push('asn') });
  await lifecycle.boot();
  assert.deepEqual(ran, ['asn']);
  const [failed] = logs.find('start-up step failed');
  assert.equal(failed?.level, 50);
  assert.equal(failed?.step, 'geo');
  assert.equal(logs.find('start-up step done').length, 1);
});

test('stop runs the stoppers in reverse order, once, and survives a failing one', async () => {
  const lifecycle = new Lifecycle(pino({ level: 'silent' }));
  const stopped: string[] = [];
  lifecycle.onStop('first', () => void stopped.push('first'));
  lifecycle.onStop('broken', () => {
    throw new Error('nope');
  });
  lifecycle.onStop('last', async () => void stopped.push('last'));
  await lifecycle.stop();
  await lifecycle.stop();
  assert.deepEqual(stopped, ['last', 'first']);
});

test('closing the API app runs the registered stoppers', async () => {
  const { buildTestApi } = await import('../support/app.js');
  const { app } = await buildTestApi();
  let stopped = false;
  app.lifecycle.onStop('scheduler', () => {
    stopped = true;
  });
  await app.close();
  assert.equal(stopped, true);
});

test('a shutdown callback that never settles is logged and skipped', async () => {
  const logs = new LogCapture();
  const lifecycle = new Lifecycle(pino({ level: 'debug' }, logs));
  const stopped: string[] = [];
  lifecycle.onStop('first', () => void stopped.push('first'));
  lifecycle.onStop('stuck', () => new Promise<void>(() => {}));
  await lifecycle.stop(20);
  assert.deepEqual(stopped, ['first']);
  assert.equal(logs.find('shutdown step timed out')[0]?.step, 'stuck');
});

test('a step with waitAtMostMs that outlasts it goes on in the background: the later steps run, and its end or failure is still logged', async () => {
  const logs = new LogCapture();
  const lifecycle = new Lifecycle(pino({ level: 'debug' }, logs));
  const ran: string[] = [];
  let finishPriming!: () => void;
  let failPriming!: (err: Error) => void;
  lifecycle.addStep({
    phase: 'service-status',
    name: 'prime',
    run: () => new Promise<void>((resolve) => (finishPriming = resolve)),
    waitAtMostMs: 10,
  });
  lifecycle.addStep({
    phase: 'service-status',
    name: 'prime and fail',
    run: () => new Promise<void>((_resolve, reject) => (failPriming = reject)),
    waitAtMostMs: 10,
  });
  lifecycle.addStep({ phase: 'background', name: 'poller', run: async () => void ran.push('poller') });
  await lifecycle.boot();
  assert.deepEqual(ran, ['poller'], 'start-up ended while both primings were still running');
  assert.deepEqual(
    logs.find('start-up step goes on in the background').map((l) => l.step),
    ['prime', 'prime and fail'],
  );
  assert.deepEqual(
    logs.find('start-up step done').map((l) => l.step),
    ['poller'],
  );

  finishPriming();
  failPriming(new Error('status pages unreachable'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    logs.find('start-up step done').map((l) => l.step),
    ['poller', 'prime'],
  );
  assert.equal(logs.find('start-up step failed')[0]?.step, 'prime and fail');
});

test('a step with waitAtMostMs that ends in time is waited for like any other', async () => {
  const lifecycle = new Lifecycle(pino({ level: 'silent' }));
  const ran: string[] = [];
  lifecycle.addStep({
    phase: 'service-status',
    name: 'prime',
    run: async () => void ran.push('prime'),
    waitAtMostMs: 60_000,
  });
  lifecycle.addStep({ phase: 'background', name: 'poller', run: async () => void ran.push('poller') });
  await lifecycle.boot();
  assert.deepEqual(ran, ['prime', 'poller']);
});
