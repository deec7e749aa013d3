import { computed, type ComputedRef } from 'vue';
import { useRoute, useRouter } from 'vue-router';
import { useLoad } from './use-load';

/** A query-string parameter of the current page, trimmed; '' when it is absent or repeated. */
export function useQueryText(name: string): ComputedRef<string> {
  const route = useRoute();
  return computed(() => {
    const value = route.query[name];
    return typeof value === 'string' ? value.trim() : '';
  });
}

/**
 * A page that answers what its query-string parameter `name` asks: the text,
 * the answer loaded for it (nothing while the text is empty), and `ask`, which
 * puts a new text in the address bar, so an answer is a link to share.
 */
export function useQueryAnswer<T>(name: string, load: (text: string, signal: AbortSignal) => Promise<T>) {
  const route = useRoute();
  const router = useRouter();
  const text = useQueryText(name);
  const ask = (value: string): void => void router.push({ path: route.path, query: value ? { [name]: value } : {} });
  return { text, ask, answer: useLoad(() => text.value || null, load) };
}
