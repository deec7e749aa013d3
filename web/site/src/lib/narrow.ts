import { onScopeDispose, ref, type Ref } from 'vue';

/** The width below which the site lays itself out for a phone (styles.css uses the same). */
const PHONE = '(max-width: 37.5rem)';
/** The width below which the header folds its navigation and preferences behind Menu (styles.css uses the same). */
export const MENU_FOLDS = '(max-width: 48rem)';

/** Whether the window is phone-narrow now (or matches `media`), kept up to date as it is resized or turned. */
export function useNarrow(media = PHONE): Ref<boolean> {
  const query = window.matchMedia(media);
  const narrow = ref(query.matches);
  const update = (event: MediaQueryListEvent) => (narrow.value = event.matches);
  query.addEventListener('change', update);
  onScopeDispose(() => query.removeEventListener('change', update));
  return narrow;
}
