import type { Page, Request } from '@playwright/test';
import { importJWK, SignJWT, type JWK } from 'jose';
import { expect } from './fixtures.js';
import { DEMO_OIDC_CLIENT, DEMO_USER } from '../demo/oidc-provider.js';

// The steps of a sign-in against the real provider the global set-up starts (oidc-provider, its issuer in
// E2E_OIDC_ISSUER), shared by the specs that sign a visitor in.

export const issuer = (): string => process.env.E2E_OIDC_ISSUER ?? '';

/**
 * An ID token for `sub` (one of the demo companion's accounts, DEMO_TOKENS), signed with the provider's own
 * key as it would issue one, so the service's sign-in check passes it on: for a test about a tool, not
 * about signing in, which would otherwise sign in at the provider's pages as each account.
 */
export async function demoIdToken(sub: string): Promise<string> {
  const jwk = JSON.parse(process.env.E2E_OIDC_SIGNING_KEY ?? '{}') as JWK;
  return new SignJWT({ sub })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
    .setIssuer(issuer())
    .setAudience(DEMO_OIDC_CLIENT)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importJWK(jwk, 'RS256'));
}

/** The provider's pages import a web font from Google; no test reaches the internet. */
export async function withoutProviderFonts(page: Page): Promise<void> {
  await page.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ contentType: 'text/css', body: '' }));
}

/** The provider's dev login page (any password), then its consent page. */
export async function signInAtProvider(page: Page): Promise<void> {
  await page.waitForURL(`${issuer()}/**`);
  await page.locator('input[name="login"]').fill(DEMO_USER.sub);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The claims of the bearer token a request carried. */
export function bearerClaims(request: Request): Record<string, unknown> {
  const match = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(request.headers().authorization ?? '');
  expect(match, 'a bearer JWT').not.toBeNull();
  return JSON.parse(Buffer.from(match![2]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export const menuButton = (page: Page) => page.getByRole('button', { name: `Signed in as ${DEMO_USER.name}` });
