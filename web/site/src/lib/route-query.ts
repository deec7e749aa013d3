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
 * whether `read` (the page's form's reader, lib/ip.ts) accepts it, the answer
 * loaded for what it reads (nothing while the text is empty or not accepted,
 * so a hand-edited link never reaches the API), and `ask`, which puts a new
 * value in the address bar, so an answer is a link to share.
 */
export function useQueryAnswer<T>(
  name: string,
  read: (text: string) => string | null,
  load: (value: string, signal: AbortSignal) => Promise<T>,
) {
  const route = useRoute();
  const router = useRouter();
  const text = useQueryText(name);
  const value = computed(() => (text.value ? read(text.value) : null));
  const valid = computed(() => !text.value || value.value !== null);
  const ask = (asked: string): void => void router.push({ path: route.path, query: { [name]: asked } });
  return { text, value, valid, ask, answer: useLoad(() => value.value, load) };
}
