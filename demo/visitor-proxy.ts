import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the reverse proxy in front of a real deployment: it
 * passes every request to the front listener and names the visitor in
 * `X-Forwarded-For`, as the spec asks a reverse proxy to. The demo and the
 * browser tests open the site through it, so a browser on this machine is
 * seen as a public address the fakes know instead of 127.0.0.1. Nothing in
 * the service itself lets a client choose its address.
 */
export async function startVisitorProxy(
  target: { host: string; port: number },
  visitorIp: string,
  port = 0,
  /** Where it listens: `::1` stands for a hostname with only an IPv6 address. */
  host = '127.0.0.1',
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.host,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': visitorIp },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad Gateway');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
