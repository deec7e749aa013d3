import { expect, test } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';
import { fixture } from '../test/support/fake-upstream.js';

// A service whose operator named its source (SOURCE_CODE_URL) and a repository to count stars of
// (REPO_STARS_REPOSITORY; the fakes answer GitHub's API for it with 9,120 stars).

let fakes: AllFakes;
let site: RunningSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fakes = await startAllFakes();
  // The reference project's repository (the default) is never shown as this site's: the operator names another.
  fakes.http.on('GET', 'api.github.com', '/repos/netdiag/netdiag', {
    json: fixture('api.github.com', 'repos-jason5ng32-MyIP.json'),
  });
  site = await startService({
    ...fakes.env,
    REPO_STARS_REPOSITORY: 'netdiag/netdiag',
    SOURCE_CODE_URL: 'https://git.example.org/netdiag',
  });
});

test.afterAll(async () => {
  await site?.stop();
  await fakes?.close();
});

test('the footer links the source the operator set, with its licence, and the stars of the repository set', async ({
  page,
}) => {
  await page.goto(`${site.url}/ip/8.8.8.8`);
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Source code (MIT licence)' })).toHaveAttribute(
    'href',
    'https://git.example.org/netdiag',
  );
  await expect(footer.getByRole('link', { name: '9,120 stars on GitHub' })).toHaveAttribute(
    'href',
    'https://github.com/netdiag/netdiag',
  );
  await page.goto(`${site.url}/privacy`);
  const source = page.getByRole('region', { name: 'Source code and licence' });
  await expect(source.getByRole('link', { name: 'Read this site’s source code' })).toHaveAttribute(
    'href',
    'https://git.example.org/netdiag',
  );
});

test('when /api/repo-stars fails the footer shows no count and no error', async ({ page, watch }) => {
  watch.allow(/api\/repo-stars|status of 500/);
  await page.route('**/api/repo-stars', (route) =>
    route.fulfill({ status: 500, json: { error: 'Failed to fetch GitHub stars' } }),
  );
  const answered = page.waitForResponse('**/api/repo-stars');
  await page.goto(`${site.url}/ip/8.8.8.8`);
  await answered;
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Source code (MIT licence)' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Privacy' })).toBeVisible();
  await expect(footer).not.toContainText('GitHub');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
