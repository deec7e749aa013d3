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

let colourFlags: boolean | null = null;

/**
 * Whether this system draws flag emoji in colour. Windows and many Linux
 * boxes have no such font and show two boxed letters instead; there, and to
 * spare the browser a font search per flag, the site shows the code.
 */
export function drawsFlags(): boolean {
  if (colourFlags !== null) return colourFlags;
  colourFlags = false;
  try {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 16;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return colourFlags;
    context.font = '14px sans-serif';
    context.textBaseline = 'top';
    context.fillText(flagEmoji('US'), 0, 0);
    const pixels = context.getImageData(0, 0, 16, 16).data;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r = 0, g = 0, b = 0] = [pixels[i], pixels[i + 1], pixels[i + 2]];
      if (Math.abs(r - g) > 24 || Math.abs(g - b) > 24) return (colourFlags = true);
    }
  } catch {
    colourFlags = false;
  }
  return colourFlags;
}
