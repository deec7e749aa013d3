import { readKept, writeKept, type KeptStore } from './kept.js';
import { THEME_KEY } from './storage-keys.js';

/** `auto` follows the system's `prefers-color-scheme`; the others pin one. */
export type Theme = 'auto' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['auto', 'light', 'dark'];

export function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}

/** The remembered theme; anything else (nothing kept, an old or hand-edited value) is `auto`. */
export function readTheme(store: KeptStore | null): Theme {
  const kept = readKept(store, THEME_KEY);
  return isTheme(kept) ? kept : 'auto';
}

/** `auto` is kept as nothing at all, so the default follows the system even if its name changes. */
export function saveTheme(store: KeptStore | null, theme: Theme): void {
  writeKept(store, THEME_KEY, theme === 'auto' ? null : theme);
}

/**
 * styles.css reads `data-theme` on <html>: absent, its dark colours follow the media query;
 * `light` or `dark` pins them whatever the system says.
 */
export function applyTheme(root: Pick<HTMLElement, 'setAttribute' | 'removeAttribute'>, theme: Theme): void {
  if (theme === 'auto') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

/** Whether the page is drawn dark: the pinned theme, else the system's choice. */
export function isDark(theme: Theme, systemDark: boolean): boolean {
  return theme === 'auto' ? systemDark : theme === 'dark';
}
