/**
 * Everything the site keeps in the visitor's browser, by name: the keys its own code writes and those the
 * libraries it sets up write for it. The privacy page lists `KEPT_IN_BROWSER`; test/site/storage-keys.test.ts
 * fails when the code reads or writes a key that is not declared here, so the page cannot fall behind.
 */

export const LOCALE_KEY = 'netdiag.locale';
export const THEME_KEY = 'netdiag.theme';
export const MASK_KEY = 'netdiag.mask';
export const HISTORY_KEY = 'netdiag.history';
export const CONNECTIVITY_KEY = 'netdiag.connectivity.targets';
export const CHECKLIST_KEY = 'netdiag.checklist.done';
export const RUNALL_KEY = 'netdiag.runall';
/** The page the site reloaded itself into after a deploy, so it does so once (stale-build.ts). */
export const RELOADED_FOR_KEY = 'netdiag.reloadedFor';
/** The service worker's cache of the pages' and tools' code (pwa.ts). */
export const CHUNK_CACHE = 'netdiag-chunks';

/** oidc-client-ts's own prefix (its default), in both stores it writes. */
const SIGN_IN_PREFIX = 'oidc.';

/** Where oidc-client-ts keeps a signed-in visitor, read without loading the library (stored-session.ts). */
export function signInSessionKey(issuer: string, clientId: string): string {
  return `${SIGN_IN_PREFIX}user:${issuer}:${clientId}`;
}

export type StorageArea = 'localStorage' | 'sessionStorage' | 'cacheStorage' | 'indexedDB';

export interface KeptEntry {
  /** Its line on the privacy page: `privacy.browser.<what>`. */
  what: string;
  area: StorageArea;
  /** The key, cache or database name; a part in angle brackets varies. */
  name: string;
}

export const KEPT_IN_BROWSER: readonly KeptEntry[] = [
  { what: 'locale', area: 'localStorage', name: LOCALE_KEY },
  { what: 'theme', area: 'localStorage', name: THEME_KEY },
  { what: 'mask', area: 'localStorage', name: MASK_KEY },
  { what: 'history', area: 'localStorage', name: HISTORY_KEY },
  { what: 'connectivity', area: 'localStorage', name: CONNECTIVITY_KEY },
  { what: 'checklist', area: 'localStorage', name: CHECKLIST_KEY },
  { what: 'runall', area: 'localStorage', name: RUNALL_KEY },
  // oidc-client-ts's defaults: the sign-in's state (its PKCE verifier) for the round trip to the provider,
  // removed on return or after 15 minutes; the session (tokens and the provider's claims) for the tab.
  { what: 'signInState', area: 'localStorage', name: `${SIGN_IN_PREFIX}<random id>` },
  { what: 'signInSession', area: 'sessionStorage', name: signInSessionKey('<provider>', '<client id>') },
  { what: 'reloadedFor', area: 'sessionStorage', name: RELOADED_FOR_KEY },
  // Workbox's own names: its precache (the shell) and the expiration plugin's dates of CHUNK_CACHE's entries.
  { what: 'shell', area: 'cacheStorage', name: 'workbox-precache-v2-<site address>' },
  { what: 'chunks', area: 'cacheStorage', name: CHUNK_CACHE },
  { what: 'chunkDates', area: 'indexedDB', name: 'workbox-expiration' },
];
