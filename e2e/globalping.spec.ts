import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from '@playwright/test';
import { shareAndOpen } from './store-report.js';
import { expect, screenshots, tabTo, test } from './fixtures.js';
import { json, type ThirdParty } from './third-party.js';
import { MTR_OUTPUT, pingResult, probe } from '../demo/probe-network.js';

// The latency, traceroute and censorship pages against a fake Globalping on
// loopback (e2e/third-party.ts): the browser's preflight, the POST (202 with
// an id), then GETs answered in progress and then finished, or a failure.

const HOST = 'api.globalping.io';
const ID = 'e2eMeasurement1';

interface Plan {
  /** The POST's answer; 202 `{id}` unless given. */
  create?: { status: number; body: unknown };
  /** The GETs' answers in turn; the last repeats. */
  polls: Array<{ status: number; body: unknown }>;
}

function cors(response: ServerResponse): void {
  response.setHeader('access-control-allow-origin', '*');
}

function fakeGlobalping(thirdParty: ThirdParty, plan: Plan): { posted: () => unknown[] } {
  const posted: unknown[] = [];
  let polls = 0;
  thirdParty.on(HOST, (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
      return response.end();
    }
    cors(response);
    if (request.method === 'POST' && request.url === '/v1/measurements') {
      posted.push(JSON.parse(body.toString('utf8')));
      const create = plan.create ?? { status: 202, body: { id: ID, probesCount: 2 } };
      return json(response, create.body, create.status);
    }
    if (request.method === 'GET' && request.url === `/v1/measurements/${ID}`) {
      const answer = plan.polls[Math.min(polls++, plan.polls.length - 1)]!;
      return json(response, answer.body, answer.status);
    }
    json(response, { error: { message: 'not found' } }, 404);
  });
  return { posted: () => posted };
}

const DE = probe('DE', 'Frankfurt', 'Hetzner Online GmbH', 24940);
const US = probe('US', 'Ashburn', 'Amazon.com, Inc.', 14618);
const running = (probes: object[]) => ({
  status: 200,
  body: {
    id: ID,
    status: 'in-progress',
    results: probes.map((p) => ({ probe: p, result: { status: 'in-progress', rawOutput: '' } })),
  },
});
const done = (results: Array<{ probe: object; result: object }>) => ({
  status: 200,
  body: { id: ID, status: 'finished', results },
});

const GOOD_PING: Plan = {
  polls: [
    running([DE, US]),
    done([
      { probe: DE, result: pingResult(4.1, 4.6, 5.3) },
      { probe: US, result: pingResult(88.2, 90.4, 97.9, 7) },
    ]),
  ],
};

async function runFrom(page: Page, path: string, target: string): Promise<void> {
  await page.goto(path);
  // The countries with probes have arrived when the suggestions are narrowed to them.
  await expect(page.getByText('7 countries chosen.')).toBeVisible();
  const box = page.getByLabel('Target: an IP address or a domain');
  await tabTo(page, box);
  await page.keyboard.type(target);
  await page.keyboard.press('Enter');
}

test('latency: a run from the chosen countries shows each one’s round trips, fastest first, and shares them', async ({
  page,
  thirdParty,
}) => {
  const globalping = fakeGlobalping(thirdParty, GOOD_PING);
  await runFrom(page, '/latency', '1.1.1.1');
  await expect(page.getByRole('status').filter({ hasText: 'Done: 2 of 7 probes answered.' })).toBeVisible();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Germany');
  await expect(rows.nth(0)).toContainText('4.6 ms');
  await expect(rows.nth(0)).toContainText('Hetzner Online GmbH');
  await expect(rows.nth(1)).toContainText('United States');
  await expect(rows.nth(1)).toContainText('12.5%');
  await expect(rows.nth(1)).toContainText('7 of 8');
  await expect(page.getByRole('list', { name: 'Average round trip per country, fastest first' })).toContainText(
    'Germany',
  );
  const [body] = globalping.posted() as Array<{ type: string; target: string; limit: number; locations: object[] }>;
  expect(body).toEqual({
    type: 'ping',
    target: '1.1.1.1',
    limit: 7,
    locations: ['JP', 'SG', 'DE', 'ZA', 'US', 'BR', 'AU'].map((country) => ({ country })),
    measurementOptions: { packets: 8 },
  });
  // The browser asked leave to POST JSON first, as a cross-origin page must.
  expect(thirdParty.seen().some((r) => r.host === HOST && r.method === 'OPTIONS')).toBe(true);
  await screenshots(page, 'latency');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'latency-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await shareAndOpen(page);
  const section = page.getByRole('region', { name: 'Latency from the world' });
  await expect(section).toContainText('1.1.1.1');
  await expect(section.locator('tbody tr').first()).toContainText('Germany');
  await expect(section.locator('tbody tr').first()).toContainText('4.6 ms');
  await screenshots(page, 'latency-report');
});

test('traceroute: one collapsible route per probe with its hops, shared through the report', async ({
  page,
  thirdParty,
}) => {
  const globalping = fakeGlobalping(thirdParty, {
    polls: [running([DE]), done([{ probe: DE, result: { status: 'finished', rawOutput: MTR_OUTPUT } }])],
  });
  await runFrom(page, '/traceroute', 'one.one.one.one');
  await expect(page.getByRole('status').filter({ hasText: 'Done: 1 of 7 probes answered.' })).toBeVisible();
  const route = page.locator('details.route');
  await expect(route).toHaveCount(1);
  await expect(route.locator('summary')).toContainText('Germany');
  await expect(route.locator('summary')).toContainText('4 hops');
  const hops = route.locator('tbody tr');
  await expect(hops).toHaveCount(4);
  await expect(hops.nth(1)).toContainText('core21.fsn1.hetzner.com');
  await expect(hops.nth(1)).toContainText('213.239.229.1');
  await expect(hops.nth(1).getByRole('link', { name: 'AS24940' })).toBeVisible();
  await expect(hops.nth(2)).toContainText('No reply');
  await expect(route.locator('thead')).toContainText('Jitter');
  await expect(route.locator('thead')).not.toContainText('Best');
  expect((globalping.posted()[0] as { type: string }).type).toBe('mtr');
  await screenshots(page, 'traceroute');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'traceroute-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await shareAndOpen(page);
  const section = page.getByRole('region', { name: 'Traceroute from the world' });
  await expect(section).toContainText('one.one.one.one');
  await expect(section.locator('details.route summary')).toContainText('Frankfurt');
  await expect(section.locator('tbody tr').nth(3)).toContainText('1.1.1.1');
});

test('a refused creation says why: no probes (422, with Globalping’s words) and the hourly budget (429)', async ({
  page,
  thirdParty,
  watch,
}) => {
  watch.allow(/HTTP 42[29]: https:\/\/api\.globalping\.io\/v1\/measurements$/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 42[29]/);
  fakeGlobalping(thirdParty, {
    create: { status: 422, body: { error: { type: 'no_probes_found', message: 'No suitable probes found.' } } },
    polls: [],
  });
  await runFrom(page, '/latency', 'example.com');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Globalping could not start the test');
  // Globalping's words are isolated from the sentence around them (U+2068 … U+2069).
  await expect(alert).toContainText('Globalping said: \u2068No suitable probes found.\u2069');
  await screenshots(page, 'latency-refused');

  thirdParty.reset();
  fakeGlobalping(thirdParty, {
    create: { status: 429, body: { error: { message: 'Too many requests.' } } },
    polls: [],
  });
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(alert).toContainText(
    'Globalping allows a limited number of tests per hour from your address; try again later',
  );
});

test('a probe network that cannot be reached says so, on latency, traceroute and the live censorship test', async ({
  page,
  thirdParty,
  watch,
}) => {
  // The preflight passes; the POST's connection is then dropped unanswered, as a network that cannot be reached.
  watch.allow(/request failed: https:\/\/api\.globalping\.io\/v1\/measurements /);
  watch.allow(/console error: Failed to load resource: net::ERR_/);
  thirdParty.on(HOST, (request, response) => {
    if (request.method !== 'OPTIONS') return request.socket.destroy();
    response.writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'content-type',
    });
    response.end();
  });
  const unreachable = 'Globalping could not be reached, so the test did not start.';
  for (const path of ['/latency', '/traceroute']) {
    await runFrom(page, path, '1.1.1.1');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(unreachable);
    await expect(alert).not.toContainText('refused the target');
  }
  await page.goto('/censorship?domain=example.com');
  const live = page.getByRole('region', { name: 'Test it live' });
  await expect(live.getByText('4 countries chosen.')).toBeVisible();
  await live.getByRole('button', { name: 'Test example.com live' }).click();
  await expect(live.getByRole('alert')).toContainText(unreachable);
  await expect(live.getByRole('alert')).not.toContainText('refused the target');
});

test('a server error at the start is no refusal of the target: Globalping’s own error, with its words', async ({
  page,
  thirdParty,
  watch,
}) => {
  watch.allow(/HTTP 503: https:\/\/api\.globalping\.io\/v1\/measurements$/);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 503/);
  fakeGlobalping(thirdParty, { create: { status: 503, body: { error: { message: 'Maintenance.' } } }, polls: [] });
  await runFrom(page, '/latency', 'example.com');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Globalping answered with an error of its own and did not start the test.');
  await expect(alert).toContainText('Globalping said: \u2068Maintenance.\u2069');
  await expect(alert).not.toContainText('refused the target');
});

test('a failing progress read and a measurement that never finishes each say so, with a retry', async ({
  page,
  thirdParty,
  watch,
}) => {
  watch.allow(/HTTP 500: https:\/\/api\.globalping\.io\/v1\/measurements\//);
  watch.allow(/console error: Failed to load resource: the server responded with a status of 500/);
  fakeGlobalping(thirdParty, { polls: [{ status: 500, body: { error: { message: 'boom' } } }] });
  await runFrom(page, '/traceroute', '1.1.1.1');
  await expect(page.getByRole('alert')).toContainText('its results could not be read from Globalping');

  thirdParty.reset();
  fakeGlobalping(thirdParty, { polls: [running([DE, US])] });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Waiting for the probes: 0 of 7 have answered.')).toBeVisible();
  // 1 + 4 polls a second apart, then the page stops asking.
  await expect(page.getByRole('alert')).toContainText('The probes did not finish in time.', { timeout: 30_000 });
  const gets = thirdParty.seen().filter((r) => r.method === 'GET' && r.host === HOST);
  expect(gets).toHaveLength(5);
});

test('the target must be something probes on the internet can reach', async ({ page, thirdParty }) => {
  await runFrom(page, '/latency', '192.168.1.1');
  await expect(page.getByText('Probes on the internet cannot reach a private or reserved address')).toBeVisible();
  expect(thirdParty.seen().filter((r) => r.host === HOST)).toEqual([]);
});

test('the target box: empty and wrong-kind words, and the visitor’s own address in one click', async ({
  page,
  thirdParty,
}) => {
  const globalping = fakeGlobalping(thirdParty, GOOD_PING);
  await page.goto('/traceroute');
  await expect(page.getByText('7 countries chosen.')).toBeVisible();
  const box = page.getByLabel('Target: an IP address or a domain');
  await expect(box).toHaveAttribute('placeholder', 'example.com');
  // A measurement's set-up, not a search: the form is no search landmark.
  await expect(page.getByRole('search')).toHaveCount(0);
  await page.getByRole('button', { name: 'Run the test' }).click();
  await expect(page.getByText('Type an IP address or a domain first, for example example.com.')).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await box.fill('not a host!');
  await box.press('Enter');
  await expect(page.getByText('That is not an IP address or a domain. For example: example.com.')).toBeVisible();
  await page.getByRole('button', { name: /Use your address/ }).click();
  await expect(box).toHaveValue('8.8.8.8');
  await expect(box).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByText('The probes send their packets to this address or name.')).toBeVisible();
  expect(globalping.posted()).toEqual([]);
});

test('censorship: the live test runs an HTTP HEAD from the chosen countries and lists what each probe saw', async ({
  page,
  thirdParty,
}) => {
  const globalping = fakeGlobalping(thirdParty, {
    polls: [
      done([
        { probe: US, result: { status: 'finished', rawOutput: 'HTTP/1.1 200 OK', statusCode: 200 } },
        { probe: DE, result: { status: 'in-progress', rawOutput: '' } },
      ]),
    ],
  });
  await page.goto('/censorship?domain=example.com');
  await expect(page.locator('tbody tr').filter({ hasText: 'Iran' })).toContainText('Confirmed blocking');
  const live = page.getByRole('region', { name: 'Test it live' });
  // Iran is flagged but has no probe: listed, not chosen, and said in words.
  await expect(live.getByText('Countries with signs of blocking')).toBeVisible();
  await expect(live.getByRole('checkbox', { name: /Iran/ })).toBeDisabled();
  await expect(live.getByText('4 countries chosen.')).toBeVisible();
  // By keyboard: Tab to a country, Space to leave it out.
  for (const name of ['Japan', 'Singapore']) {
    await tabTo(page, live.getByRole('checkbox', { name }));
    await page.keyboard.press('Space');
  }
  await expect(live.getByText('2 countries chosen.')).toBeVisible();
  await tabTo(page, live.getByRole('button', { name: 'Test example.com live' }));
  await page.keyboard.press('Enter');
  const rows = live.locator('tbody tr');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  await expect(rows.filter({ hasText: 'United States' })).toContainText('Reached');
  await expect(rows.filter({ hasText: 'United States' })).toContainText('HTTP 200');
  await expect(rows.filter({ hasText: 'Germany' })).toContainText('Failed');
  expect(globalping.posted()[0]).toEqual({
    type: 'http',
    target: 'example.com',
    locations: [
      { country: 'US', limit: 2 },
      { country: 'DE', limit: 2 },
    ],
    measurementOptions: { request: { host: 'example.com', path: '/', method: 'HEAD' }, port: 443, protocol: 'HTTPS' },
  });
  await screenshots(page, 'censorship-live');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'censorship-live-dark');
});
