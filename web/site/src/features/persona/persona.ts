/** The persona a visitor claims: the country they mean to appear from, its time zone and language. */
export interface Persona {
  country: string;
  timeZone: string;
  languages: string[];
}

interface LocaleWithZones {
  getTimeZones?: () => string[];
  timeZones?: string[];
  maximize(): Intl.Locale;
}

/** The country's time zones as the browser's Intl knows them (empty where it does not: Firefox). */
export function zonesOf(country: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${country}`) as unknown as LocaleWithZones;
    const zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
    return [...zones].sort();
  } catch {
    return [];
  }
}

/** The country's likely language as a `xx-CC` tag (CLDR's likely subtags, as the browser ships them). */
export function likelyLanguage(country: string): string {
  try {
    const language = (new Intl.Locale(`und-${country}`) as unknown as LocaleWithZones).maximize().language;
    return `${language}-${country}`;
  } catch {
    return '';
  }
}

/** A card's issuer number as the companion takes it: 6 to 8 digits, else nothing. */
export function cardBin(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{6,8}$/.test(digits) ? digits : null;
}

/** The countries a persona may claim: one entry per code, named and sorted in the page's language. */
export function countryChoices(
  codes: readonly string[],
  nameOf: (code: string) => string,
  locale: string,
): Array<{ code: string; name: string }> {
  return codes.map((code) => ({ code, name: nameOf(code) })).sort((a, b) => a.name.localeCompare(b.name, locale));
}
