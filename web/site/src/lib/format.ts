/** A date and time in the page's language, or the text as given when it is no date. */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
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

/** The time now in an IANA zone with its UTC offset ("06:42 GMT-8"), or '' for a zone the browser does not know. */
export function clockIn(zone: string, locale: string): string {
  const key = `${locale} ${zone}`;
  // Building a formatter costs far more than using one; seven cards share a handful of zones.
  if (!clocks.has(key)) {
    try {
      clocks.set(key, new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset' }));
    } catch {
      clocks.set(key, null);
    }
  }
  return clocks.get(key)?.format(new Date()) ?? '';
}
