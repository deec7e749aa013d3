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

/** The flag as two regional-indicator symbols: no image or icon font to load. */
export function flagEmoji(code: string): string {
  const cc = countryCode(code);
  if (!cc) return '';
  return String.fromCodePoint(...[...cc].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
