import { computed, onScopeDispose, ref, shallowRef } from 'vue';
import { loadSiteSettings } from '../../api/site-settings.js';
import { GlobalpingFailure, runMeasurement, type Schedule } from './client.js';
import type { Measurement } from './measurement.js';

export type RunPhase = 'idle' | 'running' | 'done' | 'failed';
/** Why a run failed: Globalping's reason, or `settings` when this site's settings (its base URL) could not be read. */
export type RunFailure = GlobalpingFailure | 'settings';

/**
 * A page's Globalping run: its rows as they arrive, its phase, why it failed.
 * A new run stops the one before; leaving the page stops it too, so no
 * request goes on for a page nobody looks at.
 */
export function useGlobalpingRun<Row>() {
  const rows = shallowRef<Row[]>([]);
  const phase = ref<RunPhase>('idle');
  const failure = shallowRef<RunFailure | null>(null);
  /** How many probes were asked for, to say how many answered. */
  const expected = ref(0);
  /** Whether Globalping has accepted the run and answered a first progress read. */
  const polled = ref(false);
  let controller: AbortController | null = null;

  function fail(reason: RunFailure): null {
    failure.value = reason;
    phase.value = 'failed';
    return null;
  }

  async function run(
    body: object,
    schedule: Schedule,
    select: (measurement: Measurement, final: boolean) => Row[],
    probes: number,
  ): Promise<Row[] | null> {
    controller?.abort();
    const own = new AbortController();
    controller = own;
    rows.value = [];
    failure.value = null;
    expected.value = probes;
    polled.value = false;
    phase.value = 'running';
    const settings = await loadSiteSettings().catch(() => null);
    if (own.signal.aborted) return null;
    if (!settings) return fail('settings');
    try {
      const final = await runMeasurement({
        base: settings.globalping.apiBase,
        body,
        schedule,
        select,
        onRows: (seen) => {
          if (own.signal.aborted) return;
          rows.value = seen;
          polled.value = true;
        },
        signal: own.signal,
      });
      phase.value = 'done';
      return final;
    } catch (err) {
      if (own.signal.aborted) return null;
      return fail(err instanceof GlobalpingFailure ? err : new GlobalpingFailure('poll'));
    }
  }

  onScopeDispose(() => controller?.abort());
  /** What RunProgress shows (`v-bind="progress"`). */
  const progress = computed(() => ({
    phase: phase.value,
    polled: polled.value,
    answered: rows.value.length,
    expected: expected.value,
    failure: failure.value,
  }));
  return { rows, phase, progress, run };
}
