import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * What the fake server does with one query: send `text` and close, or
 * `flood` that many bytes and close, or send `text` and `hang` without ever
 * closing; `delayMs` holds the whole answer back that long.
 */
export type WhoisReply = string | { text?: string; flood?: number; hang?: boolean; delayMs?: number };

/**
 * A real port-43 WHOIS server on 127.0.0.1, for WHOIS_OVERRIDE_SERVER: every
 * query lands here whatever server it was meant for, so replies are keyed by
 * the query line alone. An unknown query gets a "No match" answer.
 */
export class FakeWhois {
  readonly queries: string[] = [];
  /** Every connection accepted, whether or not it sent a query line. */
  connections = 0;
  /** Holds every answer back this long: a server that is slow rather than down. */
  slowdownMs = 0;
  /** When set, every query hangs: a server that accepts and never answers. */
  hangsAll = false;
  private readonly replies = new Map<string, WhoisReply>();
  private readonly sockets = new Set<Socket>();

  private readonly server: Server = createServer((socket) => this.accept(socket));

  static async start(port = 0): Promise<FakeWhois> {
    return new FakeWhois().listen(port);
  }

  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return this;
  }

  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  on(query: string, reply: WhoisReply): this {
    this.replies.set(query.toLowerCase(), reply);
    return this;
  }

  /** Forgets every reply, every query and every connection received. */
  reset(): void {
    this.replies.clear();
    this.queries.length = 0;
    this.connections = 0;
  }

  /** Resolves once no connection is open: every query has ended, by its answer or by its client's deadline. */
  async idle(): Promise<void> {
    for (const socket of this.sockets) await once(socket, 'close');
    if (this.sockets.size > 0) await this.idle();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.connections++;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\r\n');
      if (end < 0) return;
      const query = received.slice(0, end);
      this.queries.push(query);
      if (this.hangsAll) return;
      const reply = this.replies.get(query.toLowerCase()) ?? `No match for "${query.toUpperCase()}".\r\n`;
      const text = typeof reply === 'string' ? reply : reply.text;
      this.answer(socket, this.slowdownMs ? { text, delayMs: this.slowdownMs } : reply);
    });
  }

  private answer(socket: Socket, reply: WhoisReply): void {
    if (typeof reply === 'object' && reply.delayMs) {
      const timer = setTimeout(() => this.answer(socket, { ...reply, delayMs: 0 }), reply.delayMs);
      socket.once('close', () => clearTimeout(timer));
      return;
    }
    if (typeof reply === 'string') {
      socket.end(reply);
      return;
    }
    if (reply.text) socket.write(reply.text);
    if (reply.flood) {
      const line = Buffer.from('remarks:        flood flood flood flood flood flood flood flood flood\r\n');
      let sent = 0;
      const pump = () => {
        while (sent < reply.flood! && !socket.destroyed) {
          sent += line.length;
          if (!socket.write(line)) return void socket.once('drain', pump);
        }
        if (!socket.destroyed) socket.end();
      };
      pump();
      return;
    }
    if (!reply.hang) socket.end();
  }
}
