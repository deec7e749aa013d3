import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface HangingResolvers {
  /** For DNS_OVERRIDE_SERVER: a UDP server on loopback that reads every query and never answers. */
  dnsServer: string;
  /** For UPSTREAM_OVERRIDE_ORIGIN: an HTTP server on loopback that reads every request and never responds. */
  origin: string;
  /** How many connections the HTTP server has been opened so far. */
  connections: () => number;
  close: () => Promise<void>;
}

/** Resolvers that hang, the worst an outside resolver can do to a lookup: each query ends only at its deadline. */
export async function startHangingResolvers(): Promise<HangingResolvers> {
  const udp = createSocket('udp4');
  udp.on('message', () => {});
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');

  const sockets = new Set<Socket>();
  let connections = 0;
  const http = createServer({ requestTimeout: 0 }, () => {});
  http.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');

  return {
    dnsServer: `127.0.0.1:${udp.address().port}`,
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        new Promise<void>((resolve) => udp.close(() => resolve())),
      ]);
    },
  };
}
