import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Shared } from '../../composition.js';
import { buildWeb } from '../../web/app.js';
import { buildTestApi } from './app.js';

export interface FrontServer {
  /** The API application behind the front listener, for steps a test runs on it directly. */
  api: FastifyInstance;
  /** The pieces both listeners were handed. */
  shared: Shared;
  /** `http://127.0.0.1:<port>`, the front listener's own origin. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The real front listener with the real API behind it, on a loopback port,
 * on settings `env`; the site's folder holds a stand-in index.html only, since
 * these tests are about what the listener adds to a page, not the page.
 */
export async function startFront(env: Record<string, string> = {}): Promise<FrontServer> {
  const dir = await mkdtemp(join(tmpdir(), 'front-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>SPA</title>');
  const { app: api, shared } = await buildTestApi(env);
  const web = await buildWeb({ shared, frontendDir: dir, api });
  await web.listen({ port: 0, host: '127.0.0.1' });
  return {
    api,
    shared,
    origin: `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`,
    close: async () => {
      await web.close();
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
