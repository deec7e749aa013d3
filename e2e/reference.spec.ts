import type { Page } from '@playwright/test';
import { expect, screenshots, tabTo, test } from './fixtures.js';

interface Tag {
  name: string;
  'x-stability'?: string;
}
interface Document {
  tags: Tag[];
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

async function theDocument(page: Page): Promise<Document> {
  const response = await page.request.get('/openapi.json');
  expect(response.status()).toBe(200);
  return (await response.json()) as Document;
}

test('/reference, reached from the navigation, lists every path of the OpenAPI document', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API' }).click();
  await expect(page).toHaveURL(/\/reference$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  const document = await theDocument(page);
  const paths = Object.keys(document.paths);
  expect(paths.length).toBeGreaterThan(30);
  const shown = page.locator('details.operation > summary code');
  await expect(shown.first()).toBeVisible();
  const shownPaths = new Set(await shown.allTextContents());
  expect(paths.filter((path) => !shownPaths.has(path))).toEqual([]);
  await expect(page.getByRole('link', { name: 'Download the OpenAPI document (JSON)' })).toHaveAttribute(
    'href',
    '/openapi.json',
  );
});

test('/reference marks each stable face and /api as subject to change', async ({ page }) => {
  await page.goto('/reference');
  const document = await theDocument(page);
  const used = new Set(
    Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((o) => o.tags ?? [])),
  );
  const stable = document.tags.filter((tag) => tag['x-stability'] === 'stable' && used.has(tag.name));
  expect(stable.map((tag) => tag.name)).toContain('operations');
  for (const tag of stable) {
    await expect(page.locator(`#face-${tag.name}`)).toContainText('Stable');
  }
  await expect(page.getByRole('heading', { level: 2, name: /The site's own API/ })).toContainText('Subject to change');
  await expect(page.getByRole('region', { name: /The site's own API/ }).locator('details.operation')).toHaveCount(
    await page.locator('section[aria-labelledby="face-site-api"] details.operation').count(),
  );
});

test('/reference opens an operation by keyboard: its parameters, answers and schema', async ({ page }) => {
  await page.goto('/reference');
  const geo = page.locator('details#get-api-geo-local');
  await tabTo(page, geo.locator(':scope > summary'), 150);
  await page.keyboard.press('Enter');
  await expect(geo).toHaveAttribute('open', '');
  await expect(geo.getByRole('heading', { name: 'Parameters' })).toBeVisible();
  await expect(geo.locator('.parameters')).toContainText('ip');
  await expect(geo.locator('.parameters')).toContainText('required');
  await expect(geo.locator('.parameters')).toContainText('For example: 8.8.8.8');
  await expect(geo.locator('.statuses')).toContainText('403');
  const schema = geo.locator('.statuses li').first().locator('details.schema');
  await tabTo(page, schema.locator(':scope > summary'));
  await page.keyboard.press('Enter');
  await expect(schema.locator('pre')).toContainText('"type": "object"');
});

// The page's speed device (ReferenceOperation.vue): a folded operation's body is drawn when first opened, so
// the first render holds only the summaries; opened, it shows in full.
test("/reference draws an operation's parameters and answers when it is first opened", async ({ page }) => {
  await page.goto('/reference');
  const geo = page.locator('details#get-api-geo-local');
  await expect(geo.locator(':scope > summary')).toBeVisible();
  await expect(page.locator('details.operation .statuses')).toHaveCount(0);
  await geo.locator(':scope > summary').click();
  await expect(geo.locator('.statuses')).toContainText('403');
  await expect(page.locator('details.operation .statuses')).toHaveCount(1);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`/reference reads on a phone (${scheme}), its operations open`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/reference');
    await expect(page.locator('details.operation').first()).toBeVisible();
    // Every operation open, and every schema of the largest ones (the report's body, the readiness report).
    await page
      .locator('details.operation')
      .evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    for (const id of ['post-api-report', 'get-api-report-id', 'get-readyz', 'get-api-asn-radar']) {
      await page
        .locator(`#${id} details.schema`)
        .evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    }
    await screenshots(page, `reference-${scheme}`);
  });
}

test('/reference in Simplified Chinese keeps the document’s own words', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('netdiag.locale', 'zh-CN'));
  await page.goto('/reference');
  await expect(page.getByRole('heading', { level: 1, name: 'API 参考' })).toBeVisible();
  await expect(page.locator('#face-site-api')).toContainText('可能变更');
  await expect(page.getByText('路由说明为英文。')).toBeVisible();
});

test('/reference says in words when the server publishes no reference, or an unreadable one', async ({
  page,
  watch,
}) => {
  watch.allow(/HTTP 404: .*\/openapi\.json/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 404/);
  await page.route('/openapi.json', (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }),
  );
  await page.goto('/reference');
  await expect(page.getByRole('alert')).toContainText('This server does not publish an API reference.');
  await page.unroute('/openapi.json');
  await page.route('/openapi.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"swagger": "2.0"}' }),
  );
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText(
    "The reference could not be read: the server's answer is not an OpenAPI document.",
  );
});
