import type { Page } from '@playwright/test';
import { E2E_USER } from './oidc-provider.js';

/** The global set-up's provider, from E2E_OIDC_ISSUER. */
export const issuer = (): string => process.env.E2E_OIDC_ISSUER ?? '';

/** The provider's own pages import a web font from Google; no test reaches the internet. */
export async function quietProviderFonts(page: Page): Promise<void> {
  await page.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ contentType: 'text/css', body: '' }));
}

/** The provider's dev login page (any password), then its consent page. */
export async function signInAtProvider(page: Page): Promise<void> {
  await page.waitForURL(`${issuer()}/**`);
  await page.locator('input[name="login"]').fill(E2E_USER.sub);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}
