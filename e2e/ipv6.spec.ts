import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { startVisitorProxy } from '../demo/visitor-proxy.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';
import { freePorts } from '../test/support/free-ports.js';

// The readiness test on real sockets: the service itself on 127.0.0.1, its
// IPv4-only origin a stand-in proxy on 127.0.0.1 only, its IPv6-only origin one
// on [::1] only (each presenting an address of its family), the "IPv6 broken"
// origin the IPv4 proxy's port under a name that also resolves to [::1], where
// nothing listens (the browser must fall back), and the IPv6-only-DNS origin a
// port that refuses on both families: the one broken origin, its failing line.
const V4 = '198.51.100.4';
const V6 = '2001:db8::4';

let fakes: AllFakes;
let site: RunningSite;
const closers: Array<() => Promise<void>> = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fakes = await startAllFakes();
  const front = { host: '127.0.0.1', port: 0 };
  const [v4, v6] = await Promise.all([
    startVisitorProxy(front, V4, 0, '127.0.0.1'),
    startVisitorProxy(front, V6, 0, '::1'),
  ]);
  closers.push(v4.close, v6.close);
  const [refusing = 0] = await freePorts(1);
  site = await startService({
    ...fakes.env,
    IPV4_ONLY_ORIGIN: `http://ipv4-only.localhost:${v4.port}`,
    IPV6_ONLY_ORIGIN: `http://ipv6-only.localhost:${v6.port}`,
    IPV6_FALLBACK_ORIGIN: `http://ipv6-broken.localhost:${v4.port}`,
    IPV6_DNS_ORIGIN: `http://ipv6-dns.localhost:${refusing}`,
    IPV6_LITERAL_ORIGIN: '',
  });
  front.port = Number(new URL(site.url).port);
});

test.afterAll(async () => {
  await site?.stop();
  await Promise.all(closers.map((close) => close()));
  await fakes?.close();
});

const row = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

test('each family scored from its own origin; the fallback timed, the broken origin failing, the unset one not run', async ({
  page,
  watch,
}) => {
  watch.allow(/ipv6-dns\.localhost/);
  watch.allow(/console error: Failed to load resource: net::ERR_CONNECTION_REFUSED/);
  await page.goto(`${site.url}/ipv6`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('IPv6 readiness');
  await expect(page.getByRole('button', { name: 'Test again' })).toBeVisible({ timeout: 30_000 });

  await expect(row(page, 'IPv4 only')).toContainText(/Reached over IPv4 in \d+ ms\./);
  await expect(row(page, 'IPv6 only')).toContainText(/Reached over IPv6 in \d+ ms\./);
  await expect(row(page, 'Large answer over IPv4')).toContainText(/A 100 KB answer arrived over IPv4 in \d+ ms\./);
  await expect(row(page, 'Large answer over IPv6')).toContainText(/A 100 KB answer arrived over IPv6 in \d+ ms\./);
  // The service listens on 127.0.0.1 only: the browser reaches the site itself over IPv4.
  await expect(row(page, 'Dual stack')).toContainText(/Your browser chose IPv4 for a name with both/);
  await expect(row(page, 'Dual stack, IPv6 broken')).toContainText(
    /Fell back to IPv4 (in|only after) \d+ ms when IPv6 went nowhere/,
  );
  const dns = row(page, 'Your DNS resolver over IPv6');
  await expect(dns).toContainText('failed');
  await expect(dns).toContainText('Your DNS resolver could not look up a name served over IPv6 only.');
  await expect(row(page, 'IPv6 literal address')).toContainText(
    'Not run: this server has no literal-address origin (setting IPV6_LITERAL_ORIGIN).',
  );

  const scores = page.getByRole('status');
  await expect(scores.filter({ hasText: 'IPv4' })).toContainText('10/10');
  // 10, less 1 for the failed resolver test and 1 for the browser's IPv4 choice; a fallback over 2 s (a busy
  // machine) would cost 2 more, which this test does not judge.
  await expect(scores.filter({ hasText: 'IPv6' })).toContainText(/\b(8|6)\/10/);
  const isp = page.getByRole('region', { name: 'What to tell your ISP' });
  await expect(isp).toContainText('Your DNS resolvers cannot reach DNS servers over IPv6');
  await expect(isp).not.toContainText('I have no working IPv6');
});
