import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import { DESCRIPTORS, descriptorBudget } from './descriptor-budget.js';

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
// A listener at its cap refuses every new connection; one line a minute says
// so (with the count), where one per connection would flood the log.
const DROP_WARNING_INTERVAL_MS = 60_000;
// What the warning suggests: ample for one small server's visitors.
const RECOMMENDED_OPEN_FILES = 65_536;

export interface ListenerIdentity {
  listener: 'api' | 'front';
  logger: Logger;
}

/**
 * An HTTP server with this service's timeouts and connection cap, for both
 * listeners (Fastify's `serverFactory`). Past the cap Node closes a new
 * connection as it arrives, so a flood of connections is refused rather than
 * filling the descriptor table (plugins/README.md, "Descriptors").
 */
export function createListenerServer(handler: RequestListener, { listener, logger }: ListenerIdentity): Server {
  const server = createServer(
    {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
  server.maxConnections = DESCRIPTORS.connectionsPerListener;
  let lastWarning = -Infinity;
  let dropped = 0;
  server.on('drop', () => {
    dropped++;
    const now = performance.now();
    if (now - lastWarning < DROP_WARNING_INTERVAL_MS) return;
    lastWarning = now;
    logger.warn(
      {
        listener,
        maxConnections: DESCRIPTORS.connectionsPerListener,
        openFilesLimit: DESCRIPTORS.openFiles,
        dropped,
        fix: `raise the open-files limit (LimitNOFILE= in the systemd unit, ulimit -n elsewhere): each listener holds a quarter of it, so ${RECOMMENDED_OPEN_FILES} holds ${descriptorBudget(RECOMMENDED_OPEN_FILES).connectionsPerListener}`,
      },
      'listener at its connection cap: new connections refused',
    );
    dropped = 0;
  });
  return server;
}
