import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { returnPath, type SignInSettings } from './stored-session';

// The OpenID Connect client, loaded only when a visitor signs in or already is.
// Authorisation code with PKCE (oidc-client-ts's default for `code`), the
// session in sessionStorage (the library's default for a single-page app: it
// ends with the tab, and no other site can read it). No silent renewal in a
// hidden frame (the site's CSP frames nothing, and browsers drop the provider's
// cookies there): a refresh token renews the session when the provider gives one
// (scope offline_access), else the visitor signs in again once it expires.
let manager: UserManager | null = null;

function managerFor(signIn: SignInSettings): UserManager {
  if (manager) return manager;
  const own = new UserManager({
    authority: signIn.issuer,
    client_id: signIn.clientId,
    scope: signIn.scopes,
    response_type: 'code',
    redirect_uri: `${location.origin}/signed-in`,
    post_logout_redirect_uri: `${location.origin}/`,
    userStore: new WebStorageStateStore({ store: sessionStorage }),
    automaticSilentRenew: false,
  });
  own.events.addAccessTokenExpiring(() => {
    void own
      .getUser()
      .then((user) => (user?.refresh_token ? own.signinSilent() : null))
      .catch(() => own.removeUser());
  });
  manager = own;
  return own;
}

/** What the site shows of the visitor: the provider's claims, as the provider wrote them. */
export interface SignedInUser {
  name: string;
  email: string;
  idToken: string;
}

function seconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The signed-in visitor, or null. A session whose ID token has expired is
 * renewed with its refresh token when it has one, else ended here, so no
 * request carries a token the companion API would refuse.
 */
export async function currentUser(signIn: SignInSettings): Promise<SignedInUser | null> {
  const users = managerFor(signIn);
  let user: User | null = await users.getUser();
  if (user && user.profile.exp <= seconds()) {
    user = user.refresh_token ? await users.signinSilent().catch(() => null) : null;
    if (!user) await users.removeUser();
  }
  if (!user?.id_token) return null;
  const { profile } = user;
  const name = [profile.name, profile.preferred_username, profile.nickname, profile.email, profile.sub].find(
    (value) => typeof value === 'string' && value.trim(),
  );
  return { name: name ?? profile.sub, email: profile.email ?? '', idToken: user.id_token };
}

/** Leaves for the provider's sign-in page; the visitor comes back to `/signed-in`, then to `back`. */
export async function signInRedirect(signIn: SignInSettings, back: string): Promise<void> {
  await managerFor(signIn).signinRedirect({ state: returnPath(back) });
}

/** Finishes a sign-in on `/signed-in`: the code exchanged for tokens; answers the path to return to. */
export async function completeSignIn(signIn: SignInSettings): Promise<string> {
  const user = await managerFor(signIn).signinRedirectCallback();
  return returnPath(user.state);
}

/**
 * Ends the session here, then at the provider when it advertises an
 * end-session endpoint (which comes back to the home page); answers whether
 * the browser is leaving for the provider.
 */
export async function signOutRedirect(signIn: SignInSettings): Promise<boolean> {
  const users = managerFor(signIn);
  const user = await users.getUser();
  await users.removeUser();
  const endSession = await users.metadataService.getEndSessionEndpoint().catch(() => undefined);
  if (!endSession) return false;
  await users.signoutRedirect({ id_token_hint: user?.id_token });
  return true;
}
