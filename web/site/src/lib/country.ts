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
 * Builds the page language's country names in a task of its own, ahead of the
 * first answer: the browser loads its region names then, which takes longer
 * than rendering a card.
 */
export function prepareCountryNames(locale: string): void {
  setTimeout(() => countryName('US', locale), 0);
}
