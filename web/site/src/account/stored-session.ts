import type { SiteSettings } from '../../../site-settings.js';

export type SignInSettings = NonNullable<SiteSettings['signIn']>;

/**
 * Where oidc-client-ts keeps a signed-in visitor (its default store:
 * sessionStorage, prefix `oidc.`, key `user:<authority>:<client_id>`). Read
 * without the library, so a visitor who never signed in never downloads it.
 */
export function sessionKey(signIn: SignInSettings): string {
  return `oidc.user:${signIn.issuer}:${signIn.clientId}`;
}

export function hasStoredSession(signIn: SignInSettings, storage: Pick<Storage, 'getItem'> | null = store()): boolean {
  try {
    return Boolean(storage?.getItem(sessionKey(signIn)));
  } catch {
    return false;
  }
}

function store(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** A path inside this site to return to after signing in; anything else (another origin, `//host`) is home. */
export function returnPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : '/';
}
