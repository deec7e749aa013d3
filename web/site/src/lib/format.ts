import { ref } from 'vue';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time in the page's language, or the text as given when it is no date. */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format.format(date);
}

/** A number with the page language's digit grouping. */
export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** A percentage string of the API ("71.39%") as a number, or null when it is none. */
export function percent(text: string | undefined): number | null {
  if (typeof text !== 'string') return null;
  const value = Number.parseFloat(text.replace('%', ''));
  return Number.isFinite(value) ? value : null;
}

/** SNAKE_CASE words of an upstream ("POWER_OUTAGE") as plain words ("Power outage"). */
export function humanize(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const clocks = new Map<string, Intl.DateTimeFormat | null>();
const pending: string[] = [];
/** Bumped when a clock formatter becomes ready, so the cards that wait for one render again. */
export const clocksReady = ref(0);

function buildNext(): void {
  const key = pending.shift();
  if (key === undefined) return;
  const [locale = 'en', zone = 'UTC'] = key.split(' ');
  try {
    clocks.set(
      key,
      new Intl.DateTimeFormat(locale, {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'shortOffset',
      }),
    );
  } catch {
    clocks.set(key, null);
  }
  clocksReady.value++;
  if (pending.length) setTimeout(buildNext, 0);
}

/**
 * The time now in an IANA zone with its UTC offset ("06:42 GMT-8"); '' for a
 * zone the browser does not know, and '' until its formatter is ready. A
 * formatter loads the zone's data, which costs far more than formatting: each
 * is built in its own task, after the cards have rendered, so no single task
 * grows long enough to hold up the page.
 */
export function clockIn(zone: string, locale: string): string {
  const key = `${locale} ${zone}`;
  const clock = clocks.get(key);
  if (clock !== undefined) return clock?.format(new Date()) ?? '';
  if (!pending.includes(key)) {
    pending.push(key);
    if (pending.length === 1) setTimeout(buildNext, 0);
  }
  return '';
}
