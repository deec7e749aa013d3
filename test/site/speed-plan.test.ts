import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartLine, niceTop } from '../../web/site/src/features/speed/chart.js';
import { measurementPlan, pickSize, sizeChoices } from '../../web/site/src/features/speed/plan.js';
import { traceFacts } from '../../web/site/src/features/speed/trace.js';

test('the sizes offered are those within the server’s caps; Cloudflare gets them all', () => {
  assert.deepEqual(sizeChoices(100_000_000), [1e6, 1e7, 2.5e7, 5e7, 1e8]);
  assert.deepEqual(sizeChoices(30_000_000), [1e6, 1e7, 2.5e7]);
  assert.deepEqual(sizeChoices(undefined), [1e6, 1e7, 2.5e7, 5e7, 1e8]);
  // A server capped below the smallest choice still offers its cap.
  assert.deepEqual(sizeChoices(500_000), [500_000]);
  assert.equal(pickSize([1e6, 1e7, 2.5e7], 5e7), 2.5e7);
  assert.equal(pickSize([1e6, 1e7], 1e7), 1e7);
  assert.equal(pickSize([5e6], 1e6), 5e6);
});

test('a run ramps each direction up to the size picked and never beyond', () => {
  const plan = measurementPlan(25_000_000, 1_000_000);
  assert.deepEqual(plan.slice(0, 3), [
    { type: 'latency', numPackets: 1 },
    { type: 'download', bytes: 100_000, count: 1, bypassMinDuration: true },
    { type: 'latency', numPackets: 20 },
  ]);
  const sizes = (type: string) => plan.flatMap((m) => (m.type === type && 'bytes' in m ? [m.bytes] : []));
  assert.deepEqual(sizes('download'), [100_000, 100_000, 1e6, 1e7, 2.5e7]);
  assert.deepEqual(sizes('upload'), [100_000, 1e6]);
  // The largest size is measured most often.
  assert.deepEqual(plan.at(-1), { type: 'download', bytes: 2.5e7, count: 4 });
  assert.ok(Math.max(...measurementPlan(500_000, 500_000).map((m) => ('bytes' in m ? m.bytes : 0))) <= 500_000);
});

test('Cloudflare’s trace gives the address and the data centre, each only in its own shape', () => {
  const facts = traceFacts('fl=1\nh=speed.cloudflare.com\nip=2001:db8::1\nts=1.2\ncolo=FRA\nloc=DE\nwarp=off\n');
  assert.deepEqual(facts, { ip: '2001:db8::1', colo: 'FRA', loc: 'DE' });
  assert.deepEqual(traceFacts('ip=<script>\ncolo=fra1\nloc=Germany'), {
    ip: undefined,
    colo: undefined,
    loc: undefined,
  });
  assert.deepEqual(traceFacts(''), { ip: undefined, colo: undefined, loc: undefined });
});

test('the chart scales to a round top and draws each transfer in order', () => {
  assert.equal(niceTop(0), 1);
  assert.equal(niceTop(93), 100);
  assert.equal(niceTop(101), 200);
  assert.equal(niceTop(450), 500);
  assert.equal(niceTop(0.3), 0.5);
  assert.deepEqual(chartLine([50, 100], 100, 300, 100), { path: 'M0 50 L300 0', max: 100, last: 100 });
  assert.deepEqual(chartLine([25], 100, 300, 100), { path: 'M0 75 L300 75', max: 25, last: 25 });
  assert.equal(chartLine([], 100, 300, 100), null);
});
