import { expect, test } from './fixtures.js';

test('the status page says when the service last checked, and Refresh asks again past the browser cache', async ({
  page,
}) => {
  const asked: Array<Promise<Record<string, string>>> = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/service-status')) asked.push(request.allHeaders());
  });
  await page.goto('/status');
  await expect(page.getByRole('status').filter({ hasText: 'Last checked' })).toHaveText(/^Last checked .+\d.*\.$/);
  expect(asked).toHaveLength(1);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => asked.length).toBe(2);
  // Revalidated with the service (Chromium says so as max-age=0), not answered from the browser's five-minute cache.
  expect((await asked[0])!['cache-control']).toBeUndefined();
  expect((await asked[1])!['cache-control']).toMatch(/^(max-age=0|no-cache)$/);
  await expect(page.getByRole('status').filter({ hasText: 'Last checked' })).toBeVisible();
});

test('before the first round of checks the status page says so', async ({ page }) => {
  await page.route('/api/service-status', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ updatedAt: null, providers: [] }),
    }),
  );
  await page.goto('/status');
  await expect(page.getByRole('status').filter({ hasText: 'Not checked yet' })).toHaveText(
    'Not checked yet: the first round of checks is under way.',
  );
});
