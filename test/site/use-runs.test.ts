import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectScope } from 'vue';
import { useRuns } from '../../web/site/src/lib/use-runs.js';

test('a new run ends the one before; work added later joins the current run', () => {
  const scope = effectScope();
  const runs = scope.run(useRuns)!;
  const first = runs.next();
  assert.equal(runs.signal, first);
  assert.equal(first.aborted, false);
  const second = runs.next();
  assert.equal(first.aborted, true, 'the run before is aborted');
  assert.equal(second.aborted, false);
  assert.equal(runs.signal, second, 'later work joins the current run');
  scope.stop();
});

test('the component’s end aborts the last run', () => {
  const scope = effectScope();
  const runs = scope.run(useRuns)!;
  const last = runs.next();
  scope.stop();
  assert.equal(last.aborted, true);
});
