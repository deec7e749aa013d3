import { computed, ref, watch } from 'vue';
import { browserStore, readKept, writeKept } from './kept.js';
import { applyTheme, isDark, readTheme, saveTheme } from './theme.js';
import { maskIp } from './mask.js';
import { isIp } from './ip.js';
import { MASK_KEY } from './storage-keys.js';

// The visitor's display choices, remembered in this browser and applied live to every page.
const store = browserStore();

export const theme = ref(readTheme(store));
export const masked = ref(readKept(store, MASK_KEY) === 'on');

watch(theme, (value) => {
  saveTheme(store, value);
  applyTheme(document.documentElement, value);
});
// Whether the system asks for dark, followed live: with `auto` the page changes when the system does.
const systemQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const systemDark = ref(systemQuery?.matches ?? false);
systemQuery?.addEventListener('change', (event) => (systemDark.value = event.matches));
/** Whether the page is drawn dark now (the map asks for its dark tiles then). */
export const darkShown = computed(() => isDark(theme.value, systemDark.value));

watch(masked, (value) => writeKept(store, MASK_KEY, value ? 'on' : null));

/** An address as the page shows it: its last part hidden while the visitor masks addresses for a screenshot. */
export function shownAddress(ip: string): string {
  return masked.value && isIp(ip) ? maskIp(ip) : ip;
}
