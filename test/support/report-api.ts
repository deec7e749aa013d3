import { request } from 'undici';
import { REFERER } from './app.js';
import type { Running } from './real-server.js';
import { FULL_REPORT } from './fake-routes/platform.js';

/** An answer of the service's JSON API: its status and its parsed body. */
export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** GETs `url` as the site does (with its Referer). */
export async function get(url: string): Promise<Answer> {
  const res = await request(url, { headers: REFERER });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

/** Shares the full sample report for a week, as the site's share button does. */
export async function share(server: Running): Promise<Answer> {
  const res = await request(`${server.apiUrl}/api/report`, {
    method: 'POST',
    headers: { ...REFERER, 'content-type': 'application/json' },
    body: JSON.stringify({ report: FULL_REPORT, ttlDays: 7 }),
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}
