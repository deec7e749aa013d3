// Text a sharer or an upstream chose (a report's fields, names, WHOIS and DNS
// text) is shown, never trusted to lay itself out. Explicit bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) are dropped: a name or
// an address has no use for them, right-to-left scripts read correctly without
// them, and with them a value can draw itself backwards (`moc.elgoog` shown as
// `google.com`), which isolating it from its neighbours cannot prevent.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Untrusted text as shown: without explicit bidi controls. */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * Untrusted text for a place an element cannot go (a translated sentence, an
 * SVG label, an attribute): shown as by `displayText`, between FIRST STRONG
 * ISOLATE and POP DIRECTIONAL ISOLATE, the plain-text form of `<bdi>`, so a
 * right-to-left value does not reorder the words around it.
 */
export function isolated(text: string): string {
  return text ? `\u2068${displayText(text)}\u2069` : '';
}
