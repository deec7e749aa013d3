import { FULL_REPORT } from '../test/support/fake-routes/platform.js';

/**
 * Stores the tests' report with every section the whitelist allows
 * (masked addresses, fields left out, nulls) through the site's own API, as
 * its Share button would, and returns its page: `/r/<id>` then shows every
 * tool's view at once.
 */
export async function storeSampleReport(site: string): Promise<string> {
  const response = await fetch(`${site}/api/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', referer: `${site}/` },
    body: JSON.stringify({ report: FULL_REPORT, ttlDays: 1 }),
  });
  if (response.status !== 201) {
    throw new Error(`the service refused the sample report: ${response.status} ${await response.text()}`);
  }
  const { id } = (await response.json()) as { id: string };
  return `/r/${id}`;
}
