import { createServer, type RequestListener, type Server } from 'node:http';

// What a client may take, on both listeners. A request (headers and body) must
// arrive whole within REQUEST_TIMEOUT_MS: a client that declares a body and
// trickles it in, or never finishes its headers, holds a socket and its
// buffers until then, and is answered 408 and closed. Waiting for an upstream
// is not bounded here: the upstream client's own 8-second timeout does that.
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;
// Longer than a reverse proxy's idle keep-alive (nginx: 60 s), so the proxy,
// not this server, closes an idle connection and never sends on one being closed.
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
// How often Node checks the two timeouts above (its default is 30 s, which
// would let a 30 s limit run to a minute).
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** An HTTP server with this service's timeouts, for both listeners (Fastify's `serverFactory`). */
export function createListenerServer(handler: RequestListener): Server {
  return createServer(
    {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
}
