import { defineConfig } from '@playwright/test';

// Debian's chromium, not a browser Playwright downloads (no download reaches
// this machine). The flags keep it from calling Google's services, which this
// machine's closed network refuses.
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  outputDir: '../test-results/playwright',
  fullyParallel: false,
  workers: 2,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: true,
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    colorScheme: 'light',
    // The third-party fake (e2e/third-party.ts) presents a throw-away certificate.
    ignoreHTTPSErrors: true,
    trace: 'off',
  },
});
