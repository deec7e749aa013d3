import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver took: its headers and its body. */
export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A webhook (or push service) receiver on a loopback port, answering `status` and keeping what it was sent. */
export class Receiver {
  readonly received: Received[] = [];
  status = 204;

  private constructor(private readonly server: Server) {}

  static async start(host = '127.0.0.1'): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(receiver.status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The JSON bodies received so far. */
  get notices(): Array<Record<string, unknown>> {
    return this.received.map(({ body }) => JSON.parse(body.toString('utf8')) as Record<string, unknown>);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
