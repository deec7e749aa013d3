import type { Page } from '@playwright/test';
import { freePorts } from '../test/support/free-ports.js';
import { closedOrigin } from '../test/support/fake-upstream.js';
import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';

// Answers that said something false (issue 42, wrong answers 6 to 10), each read in the words a visitor reads,
// on the demo's fakes or on a service that reaches none of its upstreams.

const LANGUAGES = [
  ['en', 'Russia'],
  ['fr', 'Russie'],
  ['ru', 'Россия'],
  ['zh-CN', '俄罗斯'],
] as const;
async function chooseLanguage(page: Page, code: string): Promise<void> {
  await page.locator('header select:has(option[value="zh-CN"])').selectOption(code);
  await expect(page.locator('html')).toHaveAttribute('lang', code);
}

test('the persona country list names each current country once, and nothing that is not a country, in every language', async ({
  page,
}) => {
  await page.goto('/persona');
  const options = page.locator('#persona-country option:not([disabled])');
  for (const [code, russia] of LANGUAGES) {
    await chooseLanguage(page, code);
    // Exactly: "Biélorussie" holds "Russie".
    await expect(options.filter({ hasText: new RegExp(`^${russia}$`) })).toHaveCount(1);
    const names = await options.allTextContents();
    // ISO 3166-1's 249 current countries, each once.
    expect(names).toHaveLength(249);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    // Regions ICU names that are no country: the United Nations, the pseudo-locales, "unknown region", the Soviet Union.
    const region = new Intl.DisplayNames([code], { type: 'region' });
    for (const other of ['UN', 'XA', 'XB', 'ZZ', 'EU', 'QO']) expect(names).not.toContain(region.of(other));
    expect(await options.evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value))).not.toContain('SU');
  }
});

test('the AS page counts the neighbours of the data its graph draws, in the plural where it is one', async ({
  page,
}) => {
  // The demo's traffic observatory counts no upstream and one peer for AS15169; the AS-relationship snapshot,
  // which the graph draws, has two upstreams and that one peer.
  await page.goto('/asn/15169');
  const origin = page.locator('.graph-list > ul > li').filter({ hasText: 'AS15169' });
  await expect(origin.locator('ul > li')).toHaveCount(2);
  const row = page.locator('.rows > div').filter({ hasText: 'Neighbouring networks' });
  await expect(row).toContainText('2 upstreams · 0 downstreams · 1 peer (from the local AS-relationship data)');
  await expect(page.getByText('Drawn from the AS-relationship dataset of')).toBeVisible();

  // AS13335 has four upstreams in the snapshot; the graph keeps the three with a path to a Tier-1 and says so.
  await page.goto('/asn/13335');
  await expect(page.locator('.rows > div').filter({ hasText: 'Neighbouring networks' })).toContainText(
    '4 upstreams · 0 downstreams · 1 peer',
  );
  await expect(
    page.getByText('The graph shows only the upstreams with a path to a Tier-1 network: 3 of 4.'),
  ).toBeVisible();
  await expect(page.locator('.graph-list > ul > li').filter({ hasText: 'AS13335' }).locator('ul > li')).toHaveCount(3);

  // In Russian, one peer, two and four upstreams take their own forms.
  await chooseLanguage(page, 'ru');
  await expect(page.locator('.rows > div').filter({ hasText: 'Соседние сети' })).toContainText(
    '4 вышестоящих · 0 нижестоящих · 1 пир',
  );
});

test('/mac/<mac> gives a 24-bit block its 2^24 addresses', async ({ page }) => {
  await page.goto('/mac/00:00:0C:00:00:00');
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Cisco Systems, Inc');
  const size = page.locator('.rows > div').filter({ hasText: 'Block size' });
  await expect(size).toContainText('16,777,216');
  await expect(size).not.toContainText('16,777,215');
});

test('a name that does not exist: the resolvers that say so, and those that answer anyway, each said plainly', async ({
  page,
}) => {
  // The demo's plain DNS says NXDOMAIN for any name it does not hold; its four DoH stand-ins answer every
  // name with addresses, as a resolver that rewrites NXDOMAIN does.
  await page.goto('/dns?hostname=no-such-name.example&type=A');
  const summary = page.getByRole('status').filter({ hasText: 'no-such-name.example' });
  await expect(summary).toContainText('10 resolvers say no-such-name.example does not exist (NXDOMAIN).');
  await expect(summary).toContainText('4 resolvers gave addresses for it all the same');
  await expect(summary).toContainText('NXDOMAIN hijacking');
  await expect(summary).not.toContainText('Every resolver that answered gave the same records');
  await expect(page.locator('tbody tr').filter({ hasText: 'No such name' })).toHaveCount(10);
  await expect(page.locator('tbody tr').filter({ hasText: '93.184.215.14' })).toHaveCount(4);
});

test.describe('a server that reaches none of its upstreams', () => {
  let offline: RunningSite;

  test.beforeAll(async () => {
    const [dns = 0] = await freePorts(1);
    offline = await startService({
      UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin(),
      DNS_OVERRIDE_SERVER: `127.0.0.1:${dns}`,
      WHOIS_OVERRIDE_SERVER: `127.0.0.1:${dns}`,
    });
  });
  test.afterAll(async () => offline?.stop());
  // The footer's star count has no upstream here either; what it says is another test's.
  test.beforeEach(({ watch }) => {
    watch.allow(/HTTP 500: .*\/api\/repo-stars/);
    watch.allow(/console error: Failed to load resource: the server responded with a status of 500/);
  });

  test('/status says no status page could be reached, not when it last checked', async ({ page }) => {
    await page.goto(`${offline.url}/status`);
    await expect(page.getByRole('status').filter({ hasText: 'status pages' })).toHaveText(
      'None of the 16 status pages could be reached from this server, so no light is known; it tries again every five minutes.',
    );
    await expect(page.getByText('Last checked')).toHaveCount(0);
    await expect(page.locator('.status-card').filter({ hasText: 'Not reached' })).toHaveCount(16);
  });

  test('the AS page says the server lacks the AS-relationship dataset, and which setting places it', async ({
    page,
  }) => {
    await page.goto(`${offline.url}/asn/15169`);
    const note = page.locator('.note').filter({ hasText: 'AS-relationship dataset' });
    await expect(note).toContainText(
      'This server has not loaded the AS-relationship dataset, so it cannot draw any network’s upstreams: this says nothing about AS15169.',
    );
    await expect(note.locator('code')).toHaveText('DATA_DIR');
    await expect(page.getByText('No upstream data for this network')).toHaveCount(0);
  });
});
