import { expect, screenshots, test } from './fixtures.js';

test('browser information names this Chromium, its engine and system, and the shared report shows them', async ({
  page,
}) => {
  await page.goto('/browser');
  const software = page.getByRole('region', { name: 'Browser and system' });
  const row = (label: string) => software.locator('.row', { has: page.getByText(label, { exact: true }) });
  await expect(row('Browser')).toContainText(/Chrom(e|ium) \d+\./);
  await expect(row('Engine')).toContainText(/Blink \d+\./);
  await expect(row('Operating system')).toContainText('Linux');
  await expect(row('Device')).toContainText('Desktop');
  // Chromium offers Client Hints, so the exact version replaces the reduced User-Agent's.
  await expect(software).toContainText('refined with the browser’s Client Hints');
  const languages = await page.evaluate(() => navigator.languages.join(', '));
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const locale = page.getByRole('region', { name: 'Languages and time' });
  await expect(locale).toContainText(languages);
  await expect(locale).toContainText(zone);
  const screen = page.getByRole('region', { name: 'Screen' });
  await expect(screen).toContainText('pixels');
  const privacy = page.getByRole('region', { name: 'Privacy signals' });
  await expect(privacy.locator('.row', { hasText: 'Cookies' })).toContainText('On');
  const browser = (await row('Browser').locator('dd').innerText()).trim();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `browser-${scheme}`);
  }

  await page.getByRole('button', { name: 'Share report' }).click();
  await page.goto(await page.getByLabel('Link to the report').inputValue());
  const section = page.getByRole('region', { name: 'Browser information' });
  await expect(section).toContainText(browser);
  await expect(section).toContainText(/Blink \d+\./);
  await expect(section).toContainText('Linux');
  await expect(section).toContainText(languages);
  await expect(section).toContainText(zone);
  await screenshots(page, 'browser-report');
});

test('in Chinese the page and its rows are translated', async ({ page }) => {
  await page.goto('/browser');
  await page.locator('header').getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('浏览器信息');
  await expect(page.getByRole('region', { name: '浏览器与系统' })).toContainText('操作系统');
});
