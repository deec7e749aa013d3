/** What a key asks for: `g` then a letter goes to a page, the others act on the page shown. */
export type Action =
  | { kind: 'run' }
  | { kind: 'share' }
  | { kind: 'theme' }
  | { kind: 'lookup' }
  | { kind: 'help' }
  | { kind: 'go'; path: string };

/** The pages `g` then a letter goes to, in the help's order. */
export const GO_TO: ReadonlyArray<{ key: string; path: string; name: string }> = [
  { key: 'h', path: '/', name: 'home' },
  { key: 'a', path: '/runall', name: 'runall' },
  { key: 'i', path: '/addresses', name: 'addresses' },
  { key: 'c', path: '/connectivity', name: 'connectivity' },
  { key: 'w', path: '/webrtc', name: 'webrtc' },
  { key: 'd', path: '/dnsleak', name: 'dnsleak' },
  { key: 's', path: '/speed', name: 'speed' },
  { key: 'b', path: '/browser', name: 'browser' },
];

/** The single keys, in the help's order; their help line is `keys.<kind>`. */
export const SINGLE_KEYS: ReadonlyArray<{ key: string; kind: Exclude<Action['kind'], 'go'> }> = [
  { key: 'r', kind: 'run' },
  { key: 's', kind: 'share' },
  { key: 't', kind: 'theme' },
  { key: '/', kind: 'lookup' },
  { key: '?', kind: 'help' },
];

/** The part of a keydown event the reader needs. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Where the key was typed: a field keeps its keys. */
  target: EventTarget | null;
}

/** Whether a key typed there is text for a field (or a choice in a list), not a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as (Partial<HTMLElement> & { tagName?: string }) | null;
  if (!element?.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) || element.isContentEditable === true;
}

/**
 * Reads key presses one by one: the action a press asks for, or null. A `g`
 * waits for the next press, which names the page (any other key cancels it).
 * A press with Ctrl, Cmd or Alt is the browser's, and one in a field the field's.
 */
export function shortcutReader(): (press: KeyPress) => Action | null {
  let pendingGo = false;
  return (press) => {
    if (press.ctrlKey || press.metaKey || press.altKey || isTyping(press.target)) {
      pendingGo = false;
      return null;
    }
    if (pendingGo) {
      pendingGo = false;
      const page = GO_TO.find((p) => p.key === press.key);
      return page ? { kind: 'go', path: page.path } : null;
    }
    if (press.key === 'g') {
      pendingGo = true;
      return null;
    }
    const single = SINGLE_KEYS.find((s) => s.key === press.key);
    return single ? { kind: single.kind } : null;
  };
}
