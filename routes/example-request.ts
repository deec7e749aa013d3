/**
 * A request as a page of the site sends it, which the demo's fakes answer
 * with data. Each capability lists one for every route it registers in its
 * `examples.ts`; the demo test, the odd-input and secrets sweeps, the
 * demo-shapes tests and the benchmark send them, and a test fails when an
 * /api route has none. Data only: nothing here may import test code.
 */
export interface ExampleRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: string | Record<string, unknown>;
  headers?: Record<string, string>;
  /** The status the demo answers when it is not a 2xx: a method the spec refuses with 405. */
  status?: number;
}

/**
 * A fixed answer of an upstream, as the demo's fake upstream gives it: the
 * file `test/fixtures/<host>/<fixture>`, JSON when the name ends in .json.
 * An answer that depends on the request is a handler in
 * test/support/fake-routes/ instead.
 */
export interface UpstreamAnswer {
  method: 'GET' | 'POST' | 'PUT';
  host: string;
  path: string | RegExp;
  fixture: string;
  contentType?: string;
}

/** The private companion API's host in the demo (PRIVATE_API_ENDPOINT), whose fixtures are test/fixtures/private-api.example/. */
export const EXAMPLE_PRIVATE_API_HOST = 'private-api.example';
