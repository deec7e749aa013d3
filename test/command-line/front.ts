import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { buildWeb } from '../../web/app.js';
import type { Shared } from '../../composition.js';
import { GEO_DATABASES_STEP } from '../../datasets/geo/service-databases.js';
import { buildTestApi, runStartupStep } from '../support/app.js';
import { asnDatabase, cityDatabase } from '../support/sample-geo-databases.js';

export const INDEX_HTML = '<!doctype html><title>The site</title><div id="app"></div>';

export interface Front {
  origin: string;
  api: FastifyInstance;
  /** The pieces both listeners were handed (the limiter, the databases). */
  shared: Shared;
  get: (
    path: string,
    headers?: Record<string, string>,
    method?: 'GET' | 'HEAD',
  ) => Promise<{ status: number; headers: Record<string, unknown>; text: string }>;
  close: () => Promise<void>;
}

/**
 * The real front listener on a loopback port, handing /api to the real API
 * application on `env`; with the sample city and ASN databases loaded unless
 * `databases` is false (then they are never loaded, as before a download).
 */
export async function startFront(env: Record<string, string> = {}, databases = true): Promise<Front> {
  const dir = await mkdtemp(join(tmpdir(), 'command-line-'));
  await mkdir(join(dir, 'geo'));
  await mkdir(join(dir, 'site'));
  await writeFile(join(dir, 'site', 'index.html'), INDEX_HTML);
  if (databases) {
    await writeFile(join(dir, 'geo', 'GeoLite2-City.mmdb'), cityDatabase());
    await writeFile(join(dir, 'geo', 'GeoLite2-ASN.mmdb'), asnDatabase());
  }
  const { app: api, shared } = await buildTestApi({ DATA_DIR: dir, ...env });
  if (databases) await runStartupStep(api, GEO_DATABASES_STEP);
  const web = await buildWeb({ shared, frontendDir: join(dir, 'site'), api });
  await web.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
  return {
    origin,
    api,
    shared,
    get: async (path, headers = {}, method = 'GET') => {
      const res = await request(`${origin}${path}`, { method, headers });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    },
    close: async () => {
      await web.close();
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
