import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { storeReport } from './store-report.js';

// The front listener's headers as a browser obeys them: no page of another
// origin can frame the site (so none can make the site's gated API calls on a
// visitor's behalf or clickjack its buttons), and the site's own pages break
// nothing under its strict Content-Security-Policy.

/** A page on another origin (127.0.0.1, where the site is opened as localhost) that frames `target`. */
async function framingSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Another site</title><iframe src="${target}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a page of another origin cannot frame the site, and no API request comes from the frame', async ({
  page,
  baseURL,
  watch,
}) => {
  // Chrome says in the console and the request log that it refused the frame: that refusal is the point.
  watch.allow(/violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
  watch.allow(/request failed: .* net::ERR_BLOCKED_BY_RESPONSE/);
  const other = await framingSite(`${baseURL}/`);
  try {
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
    });
    const framed = page.waitForResponse(`${baseURL}/`);
    await page.goto(other.url);
    expect((await framed).headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.waitForLoadState('networkidle');
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame, 'the iframe exists').toBeDefined();
    // A blocked frame holds the browser's error page, not the site.
    expect(await frame!.locator('#app').count()).toBe(0);
    expect(apiRequests).toEqual([]);
  } finally {
    await other.close();
  }
});

/** Records every CSP violation a page reports, from its first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) seen.push(`console: ${message.text()}`);
  });
  return seen;
}

const PAGES = [
  '/',
  '/ip/8.8.8.8',
  '/whois?q=example.com',
  '/dns?hostname=example.com&type=A',
  '/mac/00:00:0C:00:00:00',
  '/asn/13335',
  '/prefix/193.0.0.0/21',
  '/censorship?domain=example.com',
  '/status?id=github',
  '/outages',
  '/reference',
  '/no/such/page',
];

test('every page of the site runs under its strict CSP without one violation', async ({ page, baseURL, watch }) => {
  test.setTimeout(120_000);
  // Only the inline script injected at the end, to prove the policy holds, may be refused.
  watch.allow(/Executing inline script violates/);
  const violations = await watchViolations(page);
  for (const target of [...PAGES, await storeReport(page, baseURL!, { origin: 'localhost' })]) {
    const answer = await page.goto(target);
    const policy = answer?.headers()['content-security-policy'] ?? '';
    expect(policy, target).toContain("frame-ancestors 'none'");
    expect(policy, target).toContain("script-src 'self'");
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations, target).toEqual([]);
  }
  // The policy is enforced and the watch sees it: an inline script is refused, and reported.
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true;';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.filter((v) => /^script-src/.test(v)).length).toBe(1);
});
