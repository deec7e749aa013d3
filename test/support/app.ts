import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, InjectOptions } from 'fastify';
import type { Dispatcher } from 'undici';
import { loadConfig } from '../../fastify.config.js';
import { createLogger } from '../../lib/logger.js';
import { secretValues } from '../../lib/secrets.js';
import { buildApi } from '../../app.js';
import { composeShared, type Shared } from '../../composition.js';
import capabilities from '../../routes/index.js';

/** Collects the JSON log lines a test's app writes. */
export class LogCapture extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
  /** Lines whose msg equals or contains `text`. */
  find(text: string): Array<Record<string, unknown>> {
    return this.lines.filter((l) => typeof l.msg === 'string' && l.msg.includes(text));
  }
  get text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }
}

export const REFERER = { referer: 'http://localhost/' };

export interface TestApi {
  app: FastifyInstance;
  logs: LogCapture;
  /** The pieces the app was handed; closing the app closes them too. */
  shared: Shared;
}

/** The real API application on settings `env` (over the defaults), logging JSON into a capture. */
export async function buildTestApi(env: Record<string, string> = {}, dispatcher?: Dispatcher): Promise<TestApi> {
  return buildTestApiWith(env, async () => {}, dispatcher);
}

/**
 * Like buildTestApi, with test-only `routes` registered under /api beside the
 * real ones, so a global behaviour can be tested before a capability uses it.
 */
export async function buildTestApiWith(
  env: Record<string, string>,
  routes: FastifyPluginAsync,
  dispatcher?: Dispatcher,
): Promise<TestApi> {
  // Load shedding answers 503 when the event loop lags, which a busy test machine
  // causes by itself; only its own test turns it on.
  const config = loadConfig({ LOG_LEVEL: 'debug', DATA_DIR: '/nonexistent-test-data', LOAD_SHEDDING: 'false', ...env });
  const logs = new LogCapture();
  const withTestRoutes: FastifyPluginAsync = async (api) => {
    await api.register(capabilities);
    await api.register(routes);
  };
  const shared = await composeShared({ config, logger: createLogger(config, logs, secretValues(config)), dispatcher });
  const app = await buildApi({ shared, routes: withTestRoutes });
  // A test owns one app: closing it ends what server.ts would close after both listeners.
  app.addHook('onClose', () => shared.close());
  await app.ready();
  return { app, logs, shared };
}

/** Runs one of the app's start-up steps, as server.ts does at boot (the geo databases' step loads them, say). */
export async function runStartupStep(app: FastifyInstance, name: string): Promise<void> {
  const step = app.lifecycle.steps.find((s) => s.name === name);
  assert.ok(step, `the app has no start-up step named ${name}`);
  await step.run();
}

/** inject() with an allowed Referer, so the gate lets the request through. */
export function call(app: FastifyInstance, options: InjectOptions | string) {
  const opts: InjectOptions = typeof options === 'string' ? { method: 'GET', url: options } : options;
  return app.inject({ ...opts, headers: { ...REFERER, ...opts.headers } });
}

/** What assertErrorAnswer reads of an answer, from inject() or a real listener. */
interface ErrorAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}

/** An error answer as the spec writes one: `status`, exactly `{ error }`, never cacheable. */
export function assertErrorAnswer(res: ErrorAnswer, status: number, error: string, label?: string): void {
  assert.equal(res.statusCode, status, label);
  assert.deepEqual(res.json(), { error }, label);
  assert.equal(res.headers['cache-control'], 'no-store', label);
}

/** Each URL is refused by a guard: 400, exactly `{ error }`, never cacheable. */
export async function assertGuardErrors(
  app: FastifyInstance,
  cases: ReadonlyArray<readonly [url: string, error: string]>,
): Promise<void> {
  for (const [url, error] of cases) assertErrorAnswer(await call(app, url), 400, error, url);
}
