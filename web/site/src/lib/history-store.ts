import { ref } from 'vue';
import { readHistory, saveHistory, withSighting, type HistoryEntry } from './address-history.js';
import { browserStore } from './kept.js';
import { emitSiteEvent } from './site-events.js';

// The visitor's own addresses as the home page saw them, kept in this browser only: nothing of it is sent anywhere.
const store = browserStore();

export const history = ref<HistoryEntry[]>(readHistory(store));
/** Whether this browser keeps anything: without storage the history lasts for the visit, and the page says so. */
export const historyKept = store !== null;

/** The home page placed the visitor's address: remember it (re-read first, another tab may have added one). */
export function recordSighting(ip: string, countryCode: string): void {
  history.value = withSighting(store ? readHistory(store) : history.value, ip, countryCode, new Date());
  saveHistory(store, history.value);
  const countries = new Set(history.value.map((entry) => entry.country).filter(Boolean));
  emitSiteEvent('historyUpdated', { countries: countries.size });
}

export function clearHistory(): void {
  history.value = [];
  saveHistory(store, []);
}
