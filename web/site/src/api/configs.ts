import { computed, type ComputedRef } from 'vue';
import { getJson } from './client';
import type { Configs } from './types';
import { useLoad, type Load } from '../lib/use-load';

let pending: Promise<Configs> | null = null;

/** The feature flags, fetched once per visit (they change only with the server's settings). */
export function loadConfigs(): Promise<Configs> {
  pending ??= getJson<Configs>('/api/configs').catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}

/** The flags as a page's load (for its error and retry), and one flag: null until the flags are known. */
export function useConfigs(flag: keyof Configs): { configs: Load<Configs>; on: ComputedRef<boolean | null> } {
  const configs = useLoad(
    () => 'configs',
    () => loadConfigs(),
  );
  const on = computed(() => (configs.state.value.status === 'done' ? configs.state.value.data[flag] : null));
  return { configs, on };
}
