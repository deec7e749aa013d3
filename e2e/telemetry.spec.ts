import { test, expect } from './fixtures.js';
import { startService, type RunningSite } from './site-server.js';
import { startAllFakes, type AllFakes } from '../test/support/fakes.js';
import { parseEnvelope } from '../routes/monitoring/envelope.js';
import { EXAMPLE_TELEMETRY_DSN } from '../routes/monitoring/examples.js';

// Each test runs its own service on fakes this file holds, so it can see what reached the error ingest
// (the service relays /api/monitoring to the DSN's host, here the fake upstream) and choose the DSN.
const INGEST = 'o0.ingest.sentry.io';
const SDK_CHUNK = /\/assets\/report-errors-[^/]+\.js$/;
const COOKIE = 'netdiag-telemetry-test-cookie';

let fakes: AllFakes;
let withDsn: RunningSite;
let withoutDsn: RunningSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fakes = await startAllFakes();
  [withDsn, withoutDsn] = await Promise.all([
    startService(fakes.env),
    startService({ ...fakes.env, TELEMETRY_DSN_FRONTEND: '' }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([withDsn?.stop(), withoutDsn?.stop()]);
  await fakes?.close();
});

/** Every event the fake ingest received, with its envelope's header. */
function receivedEvents() {
  return fakes.http.requests
    .filter((r) => r.host === INGEST)
    .flatMap((r) => {
      const envelope = parseEnvelope(r.body);
      return envelope.items.flatMap((item) =>
        item.event ? [{ header: envelope.header, event: item.event, bytes: r.body.toString('utf8') }] : [],
      );
    });
}

function messages(): string[] {
  return receivedEvents().flatMap(({ event }) => {
    const values = (event.exception as { values?: { value?: string }[] } | undefined)?.values ?? [];
    return values.map((v) => v.value ?? '');
  });
}

test('with a DSN, the SDK loads at the first error, and the page’s errors reach the error ingest through /api/monitoring, without personal data', async ({
  page,
  watch,
}) => {
  watch.allow(/uncaught: telemetry test|console error: .*telemetry test/);
  const tunnel: number[] = [];
  const seen: string[] = [];
  page.on('request', (request) => seen.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/monitoring') tunnel.push(response.status());
  });
  await page.context().addCookies([{ name: 'session', value: COOKIE, url: withDsn.url }]);
  await page.goto(`${withDsn.url}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // A visit without an error loads nothing of the SDK.
  expect(seen.filter((path) => SDK_CHUNK.test(path))).toEqual([]);

  const sdk = page.waitForResponse((response) => SDK_CHUNK.test(new URL(response.url()).pathname));
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('telemetry test: uncaught');
    });
    setTimeout(() => void Promise.reject(new Error('telemetry test: unhandled rejection')));
    // What Vue does with an error in a component: it hands it to the app's errorHandler.
    const app = (document.querySelector('#app') as unknown as { __vue_app__: import('vue').App }).__vue_app__;
    app.config.errorHandler?.(new Error('telemetry test: in a component'), null, 'mounted hook');
  });
  await sdk;
  await expect
    .poll(() => messages(), { timeout: 20_000 })
    .toEqual(
      expect.arrayContaining([
        'telemetry test: uncaught',
        'telemetry test: unhandled rejection',
        'telemetry test: in a component',
      ]),
    );
  // Once loaded, the SDK reports what comes later itself.
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('telemetry test: later');
    }),
  );
  await expect.poll(() => messages(), { timeout: 20_000 }).toContain('telemetry test: later');

  expect(tunnel.length).toBeGreaterThan(0);
  expect(tunnel.every((status) => status === 200)).toBe(true);
  for (const { header, event, bytes } of receivedEvents()) {
    expect(header.dsn).toBe(EXAMPLE_TELEMETRY_DSN);
    expect((event.user as { ip_address?: string } | undefined)?.ip_address).toBeUndefined();
    // Nor may the ingest take the address from the connection.
    expect((event.sdk as { settings?: { infer_ip?: string } }).settings?.infer_ip).toBe('never');
    expect((event.request as { headers?: unknown } | undefined)?.headers).toBeUndefined();
    expect(bytes).not.toContain(COOKIE);
    expect(bytes).not.toContain('127.0.0.1');
  }
});

test('without a DSN, nothing of the SDK loads and nothing is sent, whatever the page throws', async ({
  page,
  watch,
}) => {
  watch.allow(/uncaught: telemetry test/);
  const seen: string[] = [];
  page.on('request', (request) => seen.push(new URL(request.url()).pathname));
  await page.goto(`${withoutDsn.url}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await (await page.request.get(`${withoutDsn.url}/site-settings.json`)).json()).toMatchObject({
    telemetry: null,
  });
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('telemetry test: uncaught');
    });
  });
  await page.getByRole('link', { name: 'WHOIS' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(seen.filter((path) => SDK_CHUNK.test(path) || path === '/api/monitoring')).toEqual([]);
  expect(await page.evaluate(() => '__SENTRY__' in window)).toBe(false);
});
