import englishNames from 'virtual:country-names/en';

// Country names by language, made at build time (country-names-plugin.ts):
// English ships with the page, another language arrives with its texts.
const tables = new Map<string, Readonly<Record<string, string>>>([['en', englishNames]]);

/** A two-letter code in upper case, or '' when the text is not one. */
export function countryCode(text: string | null | undefined): string {
  return typeof text === 'string' && /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : '';
}

/** The country's name in the page's language (`EU` included), or the code when there is no name for it. */
export function countryName(code: string, locale: string): string {
  const upper = code.toUpperCase();
  return tables.get(locale)?.[upper] ?? englishNames[upper] ?? code;
}

/** Adds a language's country names (before the page switches to it). */
export function addCountryNames(locale: string, names: Readonly<Record<string, string>>): void {
  tables.set(locale, names);
}
