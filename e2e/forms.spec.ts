import { expect, test } from './fixtures.js';

// One way to read a query on every page: a pasted URL asks for its host,
// an empty box and text of the wrong kind get the same words everywhere,
// and an empty page offers examples to try.

test('a pasted URL works in every form, the home box included', async ({ page }) => {
  await page.goto('/dns');
  await page.getByLabel('Hostname').fill('https://Example.com/some/path?x=1');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(/\/dns\?hostname=example\.com&type=A$/);
  await expect(page.locator('tbody tr')).toHaveCount(14);

  await page.goto('/censorship');
  await page.getByLabel('Domain').fill('http://example.com/');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(/\/censorship\?domain=example\.com$/);

  await page.goto('/whois');
  await page.getByLabel('Domain or IP address').fill('https://example.com:8443/login');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(/\/whois\?q=example\.com$/);

  await page.goto('/');
  await page.getByLabel('Look up an IP address, domain, AS number, prefix or MAC address').fill('https://1.1.1.1/dns/');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(/\/ip\/1\.1\.1\.1$/);
});

test('an empty submit and text of the wrong kind get the same words, and nothing is asked of the API', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/(whois|dnsresolver|censorship-blocking)/.test(request.url())) asked.push(request.url());
  });
  await page.goto('/dns');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.locator('#dns-hostname-help')).toHaveText('Type a hostname first, for example example.com.');
  await expect(page.getByLabel('Hostname')).toHaveAttribute('aria-invalid', 'true');

  await page.goto('/whois');
  await page.getByLabel('Domain or IP address').fill('not a domain!');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.locator('#whois-q-help')).toHaveText(
    'That is not a domain or an IP address. For example: example.com.',
  );

  await page.goto('/whois?q=not%20a%20domain');
  await expect(page.locator('#whois-q-help')).toHaveText(
    'That is not a domain or an IP address. For example: example.com.',
  );
  await expect(page.getByText('Invalid IP or address')).toHaveCount(0);
  expect(asked).toEqual([]);
});

test('an empty tool page offers examples, and one click runs one', async ({ page }) => {
  await page.goto('/whois');
  await expect(page.locator('.examples')).toContainText('Try:');
  await page.getByRole('button', { name: 'example.com' }).click();
  await expect(page).toHaveURL(/\/whois\?q=example\.com$/);
  await expect(page.locator('.whois-record').first()).toBeVisible();
  await expect(page.locator('.examples')).toHaveCount(0);

  await page.goto('/mac');
  await page.getByRole('button', { name: '00:00:0C:12:34:56' }).click();
  await expect(page).toHaveURL(/\/mac\/00:00:0C:12:34:56$/);
});
