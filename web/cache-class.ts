import { basename } from 'node:path';

/** The spec's cache classes for the front listener's files. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
export const NO_STORE = 'no-store';

// A file extension starts with a letter (`.js`, `.png`, `.mp4`), so a navigation
// to an address such as `/ip/8.8.8.8` still gets the single-page app.
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/** Whether a GET to `url` is a single-page-app navigation: its last path segment has no file extension. */
export function isNavigation(url: string): boolean {
  return !FILE_EXTENSION.test(basename(url.split('?', 1)[0] ?? '/'));
}

/** Build tools put content-hashed files under assets/ with the hash after the last dash (`index-B2x9c1Qa.js`). */
export function isHashedAsset(path: string): boolean {
  return /(^|\/)assets\/[^/]*-[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/.test(path.replace(/\\/g, '/'));
}

/** The Cache-Control of a file in the build, by its path relative to the build folder. */
export function cacheClassOf(relativePath: string): string {
  return isHashedAsset(relativePath) ? IMMUTABLE : REVALIDATE;
}
