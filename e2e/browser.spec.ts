import { expect, PHONE, screenshots, test } from './fixtures.js';

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

test('the fingerprint and graphics adapter are computed in the page, stable, and never leave it', async ({ page }) => {
  const requested: string[] = [];
  const sent: string[] = [];
  page.on('request', (request) => {
    requested.push(request.url());
    if (request.method() === 'POST') sent.push(request.postData() ?? '');
  });
  await page.goto('/browser');
  const origin = new URL(page.url()).origin;
  const card = page.getByRole('region', { name: 'Fingerprint' });
  await card.scrollIntoViewIfNeeded();
  const id = card.locator('.row', { hasText: 'Identifier' }).locator('dd');
  await expect(id).toHaveText(/^([0-9a-f]{8} ){3}[0-9a-f]{8}$/);
  await expect(card.locator('.row', { hasText: 'Traits read' })).toContainText(/\d+/);
  await expect(card).toContainText('It is never sent');
  const first = (await id.innerText()).replace(/ /g, '');
  // Headless Chromium draws WebGL in software (SwiftShader) and names it through WEBGL_debug_renderer_info.
  const graphics = page.getByRole('region', { name: 'Graphics adapter' });
  await expect(graphics.locator('.row', { hasText: 'Adapter' })).toContainText('SwiftShader');
  await expect(graphics).toContainText('WEBGL_debug_renderer_info');

  await page.reload();
  await card.scrollIntoViewIfNeeded();
  await expect(id).toHaveText(first.match(/.{8}/g)!.join(' '));
  await page.getByRole('button', { name: 'Share report' }).click();
  await expect(page.getByLabel('Link to the report')).toHaveValue(/\/r\//);
  const report = sent.find((body) => body.includes('"browserinfo"'));
  expect(report).toBeDefined();
  expect(report).not.toContain(first);
  expect(report).not.toContain('SwiftShader');
  // The library's own statistics request (its `monitoring`) or anything else off this site.
  expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
});

test('a browser that hides the adapter or has no WebGL gets a plain note', async ({ page }) => {
  await page.addInitScript(() => {
    const getExtension = WebGLRenderingContext.prototype.getExtension;
    WebGLRenderingContext.prototype.getExtension = function (this: WebGLRenderingContext, name: string) {
      return name === 'WEBGL_debug_renderer_info' ? null : getExtension.call(this, name);
    } as typeof getExtension;
  });
  await page.goto('/browser');
  const graphics = page.getByRole('region', { name: 'Graphics adapter' });
  await graphics.scrollIntoViewIfNeeded();
  await expect(graphics).toContainText('This browser hides the real adapter from websites');
  await expect(graphics.locator('.row', { hasText: 'Adapter' })).toContainText('WebKit WebGL');

  const bare = await page.context().newPage();
  await bare.addInitScript(() => {
    HTMLCanvasElement.prototype.getContext = () => null;
  });
  await bare.goto('/browser');
  await bare.getByRole('region', { name: 'Graphics adapter' }).scrollIntoViewIfNeeded();
  await expect(bare.getByRole('region', { name: 'Graphics adapter' })).toContainText('This browser offers no WebGL');
  const bareId = bare.getByRole('region', { name: 'Fingerprint' }).locator('.row', { hasText: 'Identifier' });
  await expect(bareId).toContainText(/[0-9a-f]{8}/);
});

test('on a phone nothing on screen moves while the later cards, the hints and the fingerprint arrive', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => {
    (window as unknown as { shifts: number }).shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // The hints answer after the first paint, as they may on a slow phone.
    const data = (navigator as unknown as { userAgentData?: { getHighEntropyValues(h: string[]): Promise<unknown> } })
      .userAgentData;
    if (data) {
      const ask = data.getHighEntropyValues.bind(data);
      data.getHighEntropyValues = (hints) => new Promise((resolve) => setTimeout(() => resolve(ask(hints)), 1000));
    }
  });
  await page.goto('/browser');
  await expect(page.getByRole('region', { name: 'Browser and system' })).toContainText('Client Hints');
  await page.getByRole('region', { name: 'Fingerprint' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('region', { name: 'Fingerprint' }).locator('.row').first()).toBeVisible();
  // Lighthouse's "good" layout shift is under 0.1; the page measured 0.42 when its cards waited for the hints.
  expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.1);
});

test('on a phone the fingerprint is read when its card comes into view, not while the page loads', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const chunks: string[] = [];
  page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
  await page.goto('/browser');
  const software = page.getByRole('region', { name: 'Browser and system' });
  await expect(software).toContainText('Client Hints');
  const card = page.getByRole('region', { name: 'Fingerprint' });
  await expect(card).toContainText('Loading');
  // FingerprintJS is its own chunk (fp.esm-*.js): not fetched while its card is out of sight.
  await page.waitForLoadState('networkidle');
  expect(chunks.filter((path) => /\/fp\.esm-/.test(path))).toEqual([]);
  await expect(card).toContainText('Loading');

  await card.scrollIntoViewIfNeeded();
  await expect(card.locator('.row', { hasText: 'Identifier' })).toContainText(/[0-9a-f]{8}/);
  expect(chunks.filter((path) => /\/fp\.esm-/.test(path))).toHaveLength(1);
});
