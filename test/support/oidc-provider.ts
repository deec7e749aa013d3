import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** The public client the site signs in as (no secret: authorisation code with PKCE), as in the browser tests. */
export const TEST_CLIENT = 'netdiag-site';
const REDIRECT_URI = 'http://localhost/signed-in';

export interface TestProvider {
  issuer: string;
  /** The private half of the one key the provider signs with and publishes, and its id. */
  signingKey: CryptoKey;
  kid: string;
  /** An ID token the provider issues for `sub` through its real sign-in: authorisation code with PKCE. */
  idTokenFor(sub: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback, signing with a
 * key the test knows, so a test can forge tokens that only one claim sets
 * apart from a good one. Any login is an account; any password passes (its
 * development pages).
 */
export async function startOidcProvider(): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-key';
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI],
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-only-cookie-key'] },
    ttl: { AccessToken: 3600, IdToken: 3600, Interaction: 3600, Session: 3600, Grant: 3600 },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    signingKey: privateKey,
    kid,
    idTokenFor: (sub) => signIn(issuer, sub),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * What a browser does at the provider, over HTTP: the authorisation request,
 * its login and consent forms (each a POST of the form's hidden `prompt`),
 * the redirects between them with the provider's cookies, then the code
 * exchanged at the token endpoint.
 */
async function signIn(issuer: string, sub: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(new URL(url, issuer), {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  const query = new URLSearchParams({
    client_id: TEST_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    nonce: randomBytes(8).toString('hex'),
  });
  let res = await send(`/auth?${query}`);
  for (let step = 0; step < 10; step++) {
    const location = res.headers.get('location');
    if (location?.startsWith(REDIRECT_URI)) return exchange(issuer, new URL(location), verifier);
    if (location) {
      await res.arrayBuffer();
      res = await send(location);
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`the provider answered ${res.status} with no form to submit`);
    res = await send(action.replaceAll('&amp;', '&'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt, login: sub, password: 'any' }).toString(),
    });
  }
  throw new Error('the sign-in did not come back to the redirect URI');
}

async function exchange(issuer: string, callback: URL, verifier: string): Promise<string> {
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`the provider refused the sign-in: ${callback.searchParams.get('error')}`);
  const res = await fetch(new URL('/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: TEST_CLIENT,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await res.json()) as { id_token?: string };
  if (!body.id_token) throw new Error(`the token endpoint answered ${res.status} without an ID token`);
  return body.id_token;
}
