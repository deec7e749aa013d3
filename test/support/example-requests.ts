import { CAPABILITIES } from '../../routes/index.js';
import type { ExampleRequest } from '../../routes/example-request.js';

/** Every registered capability's example requests (routes/<cap>/examples.ts), in registration order. */
export function exampleRequests(): ExampleRequest[] {
  return CAPABILITIES.flatMap((capability) => capability.examples);
}

/** The example request of `method` whose URL starts with `urlStart`: the demo-shapes tests read the same requests the demo test sends. */
export function exampleRequest(urlStart: string, method = 'GET'): ExampleRequest {
  const found = exampleRequests().find((r) => (r.method ?? 'GET') === method && r.url.startsWith(urlStart));
  if (!found) throw new Error(`no example request ${method} ${urlStart} in routes/*/examples.ts`);
  return found;
}
