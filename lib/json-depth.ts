// Far deeper than any JSON the site sends (a report is six levels deep; the
// telemetry SDK cuts an event's own data at three levels, so an event stays
// near ten); far shallower than what exhausts the stack of a recursive walk.
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one
 * pass over the text without parsing it. Deep nesting is legal JSON, but
 * every recursive step after parsing (validation, JSON.stringify when a body
 * is forwarded or measured) would run out of stack on it.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
