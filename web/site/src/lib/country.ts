const names = new Map<string, Intl.DisplayNames>();

/** A two-letter code in upper case, or '' when the text is not one. */
export function countryCode(text: string | null | undefined): string {
  return typeof text === 'string' && /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : '';
}

/** The country's name in the page's language (`EU` included), or the code when the browser has no name. */
export function countryName(code: string, locale: string): string {
  let display = names.get(locale);
  if (!display) {
    display = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    names.set(locale, display);
  }
  try {
    return display.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * Loads the page language's country names now. The browser's first lookup
 * loads its region data, which takes longer than rendering a card: done
 * before the page first paints, it does not hold up a visitor who is
 * already looking at the page.
 */
export function prepareCountryNames(locale: string): void {
  countryName('US', locale);
}
