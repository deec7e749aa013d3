import { loadSiteSettings } from './site-settings';
import { hasStoredSession } from '../account/stored-session';

/**
 * The headers a call to a private route carries (the routes forward
 * `Authorization` to the companion API): `{}` when sign-in is not set up or the
 * visitor is signed out, else the OpenID Connect ID token as a bearer token
 * (web/site/README.md, "Sign-in", says why the ID token). The sign-in code is
 * loaded only when a session exists.
 */
export async function authHeaders(): Promise<Record<string, string>> {
  const signIn = await loadSiteSettings().then(
    (settings) => settings.signIn,
    () => null,
  );
  if (!signIn || !hasStoredSession(signIn)) return {};
  const { currentUser } = await import('../account/oidc');
  const user = await currentUser(signIn).catch(() => null);
  return user ? { authorization: `Bearer ${user.idToken}` } : {};
}
