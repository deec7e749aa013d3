import type { FakeUpstream } from '../test/support/fake-upstream.js';
import type { ExampleRequest } from '../routes/example-request.js';

/**
 * One benchmarked request, run by bench/run.ts against the real listeners
 * (a child process started with `env` on top of the bench defaults, its
 * upstreams pointed at a fake upstream server in the bench process).
 */
export interface BenchCase {
  name: string;
  listener: 'api' | 'front';
  path: string;
  method?: ExampleRequest['method'];
  headers?: Record<string, string>;
  body?: string;
  /** Extra settings for the server process; cases with equal env share one server. */
  env?: Record<string, string>;
  /** Runs once before the server starts: e.g. writes a generated dataset into `dataDir`. */
  prepare?: (dataDir: string) => Promise<void>;
  /** Fake upstream routes the case needs. */
  fake?: (fake: FakeUpstream) => void;
  /** A ratio to the bare node:http baseline that the issue asks for, checked and printed. */
  minRatio?: number;
  /** The most CPU per request the issue allows, in times the baseline's (judged on the median round); with sameBytes, the same answer's. */
  maxCpuRatio?: number;
  /**
   * The baseline sends this case's own answer (its body and headers, taken
   * once from the server before measuring) instead of /api/configs's body:
   * for static files, whose ratio means the same bytes from memory.
   */
  sameBytes?: boolean;
}

/** The request of a case that sends a capability's example request (routes/<cap>/examples.ts), as a page sends it. */
export function exampleCase(request: ExampleRequest): Pick<BenchCase, 'path' | 'method' | 'headers' | 'body'> {
  if (request.payload === undefined) return { path: request.url, method: request.method, headers: request.headers };
  if (typeof request.payload === 'string') {
    return { path: request.url, method: request.method, headers: request.headers, body: request.payload };
  }
  return {
    path: request.url,
    method: request.method,
    headers: { 'content-type': 'application/json', ...request.headers },
    body: JSON.stringify(request.payload),
  };
}
