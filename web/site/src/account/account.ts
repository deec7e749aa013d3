import { reactive } from 'vue';
import { loadSiteSettings } from '../api/site-settings';
import { hasStoredSession, type SignInSettings } from './stored-session';

/**
 * The visitor's sign-in as the header and the profile show it. `off`: the
 * operator set up no provider; `failed`: the site's settings did not load.
 * This module stays small (it is in the first page's bundle); the OpenID
 * Connect client and the achievements load only for a visitor who signs in or
 * already is.
 */
export type AccountState = 'loading' | 'off' | 'failed' | 'signedOut' | 'signedIn';

export const account = reactive({
  state: 'loading' as AccountState,
  settings: null as SignInSettings | null,
  name: '',
  email: '',
  /** The achievement unlocked last, for the header's notice. */
  unlocked: '',
});

let started: Promise<void> | null = null;

/** Finds out once per visit whether sign-in is set up and whether this tab holds a session. */
export function startAccount(): Promise<void> {
  started ??= settle();
  return started;
}

async function settle(): Promise<void> {
  try {
    account.settings = (await loadSiteSettings()).signIn;
  } catch {
    account.state = 'failed';
    started = null;
    return;
  }
  if (!account.settings) account.state = 'off';
  else if (!hasStoredSession(account.settings)) account.state = 'signedOut';
  else await refreshAccount();
}

/** Reads the session (after a sign-in finished, or at start); a signed-in visitor's achievements start listening. */
export async function refreshAccount(): Promise<void> {
  const settings = account.settings;
  if (!settings) return;
  const { currentUser } = await import('./oidc');
  const user = await currentUser(settings).catch(() => null);
  if (!user) {
    account.state = 'signedOut';
    return;
  }
  Object.assign(account, { state: 'signedIn', name: user.name, email: user.email });
  // Not waited for: the page the visitor returns to need not wait for the profile.
  void import('./achievements')
    .then(({ startAchievements }) => startAchievements((name) => (account.unlocked = name)))
    .catch(() => undefined);
}

/** Leaves for the provider's sign-in page, to come back to `back`. */
export async function signIn(back: string): Promise<void> {
  if (!account.settings) return;
  const { signInRedirect } = await import('./oidc');
  await signInRedirect(account.settings, back);
}

/** Signs out here, then at the provider when it offers it; answers whether the browser is leaving for it. */
export async function signOut(): Promise<boolean> {
  if (!account.settings) return false;
  const [{ signOutRedirect }, { stopAchievements }] = await Promise.all([import('./oidc'), import('./achievements')]);
  stopAchievements();
  Object.assign(account, { state: 'signedOut', name: '', email: '', unlocked: '' });
  return signOutRedirect(account.settings);
}
