import { once } from 'node:events';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The public client the site signs in as (no secret: authorisation code with PKCE). */
export const DEMO_OIDC_CLIENT = 'netdiag-site';

/** The demo account, the one the provider knows: its login page takes `sub` as the login, with any password. */
export const DEMO_USER = { sub: 'ada-0001', name: 'Ada Lovelace', email: 'ada@netdiag.test' };

export interface RunningProvider {
  issuer: string;
  /** The private key it signs ID tokens with (and publishes), for a test that signs as it would (`demoIdToken`). */
  signingKey: JWK;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider, OpenID certified) on
 * loopback for the demo's sign-in and the browser tests: its own login and
 * consent pages, PKCE required for the public client, discovery, JWKS, token
 * and end-session endpoints as a real deployment has them. `site` is the
 * demo's origin, for the client's redirect URIs.
 */
export async function startOidcProvider(port: number, site: string): Promise<RunningProvider> {
  const issuer = `http://localhost:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'demo-key', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    clients: [
      {
        client_id: DEMO_OIDC_CLIENT,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${site}/signed-in`],
        post_logout_redirect_uris: [`${site}/`],
      },
    ],
    claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
    // The profile's claims in the ID token, as most providers put them for a code flow.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) =>
      sub === DEMO_USER.sub ? { accountId: sub, claims: () => ({ ...DEMO_USER, email_verified: true }) } : undefined,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['demo-only-cookie-key'] },
    // Lifetimes set (its defaults print a notice each): an hour, longer than any test or demo sign-in.
    ttl: { AccessToken: 3600, IdToken: 3600, Interaction: 3600, Session: 3600, Grant: 3600 },
  });
  // The browser asks the provider's pages for an icon; a 404 would fail the test's watch.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/favicon.ico') ctx.status = 204;
    else await next();
  });
  const server = createServer(provider.callback());
  server.listen(port, 'localhost');
  await once(server, 'listening');
  return {
    issuer,
    signingKey,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
