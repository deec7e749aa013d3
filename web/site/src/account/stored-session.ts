import type { SiteSettings } from '@contract/site-settings.js';
import { signInSessionKey } from '../lib/storage-keys.js';

export type SignInSettings = NonNullable<SiteSettings['signIn']>;

/**
 * Whether this tab holds a session, read where oidc-client-ts keeps it without
 * the library, so a visitor who never signed in never downloads it.
 */
export function hasStoredSession(signIn: SignInSettings, storage: Pick<Storage, 'getItem'> | null = store()): boolean {
  try {
    return Boolean(storage?.getItem(signInSessionKey(signIn.issuer, signIn.clientId)));
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
