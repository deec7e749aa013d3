import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue';

export type LoadState<T> =
  { status: 'idle' } | { status: 'loading' } | { status: 'done'; data: T } | { status: 'error'; error: unknown };

/** What a page loads: its state, and a way to ask again. */
export interface Load<T> {
  state: ShallowRef<LoadState<T>>;
  reload: () => void;
}

/**
 * Loads data for a key (a route parameter, a query) whenever it changes; a
 * null key means nothing to load. A newer key aborts the older request, so a
 * slow answer never overwrites a newer one. `reload()` asks again.
 */
export function useLoad<K, T>(key: WatchSource<K | null>, load: (key: K, signal: AbortSignal) => Promise<T>): Load<T> {
  const state = shallowRef<LoadState<T>>({ status: 'idle' });
  let controller: AbortController | null = null;
  let current: K | null = null;

  function run(value: K | null): void {
    controller?.abort();
    controller = null;
    current = value;
    if (value === null) {
      state.value = { status: 'idle' };
      return;
    }
    const own = new AbortController();
    controller = own;
    state.value = { status: 'loading' };
    load(value, own.signal).then(
      (data) => {
        if (!own.signal.aborted) state.value = { status: 'done', data };
      },
      (error: unknown) => {
        if (!own.signal.aborted) state.value = { status: 'error', error };
      },
    );
  }

  watch(key, run, { immediate: true });
  onScopeDispose(() => controller?.abort());
  return { state, reload: () => run(current) };
}
