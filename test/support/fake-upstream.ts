import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** One request the fake upstream received. `host` is the real upstream's host (first path segment). */
export interface Recorded {
  method: string;
  host: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A canned answer. `hang` never answers; `destroy` drops the connection; `chunks` sends a body in pieces with pauses. */
export interface Canned {
  status?: number;
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
  destroy?: boolean;
}

// The return value is ignored, so `(req, res) => res.end(...)` is a handler too.
export type Handler = (req: Recorded, res: ServerResponse) => unknown;

interface Route {
  method: string;
  host: string;
  path: string | RegExp;
  reply: Canned | Handler;
}

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures');

/** A fixture file from test/fixtures, parsed as JSON when it ends in .json. */
export function fixture(...parts: string[]): unknown {
  const text = readFileSync(join(FIXTURES, ...parts), 'utf8');
  return parts[parts.length - 1]!.endsWith('.json') ? JSON.parse(text) : text;
}

export function fixtureBytes(...parts: string[]): Buffer {
  return readFileSync(join(FIXTURES, ...parts));
}

/**
 * A real HTTP server on 127.0.0.1 that stands in for every upstream, as
 * UPSTREAM_OVERRIDE_ORIGIN expects: `https://HOST/PATH` arrives as `/HOST/PATH`.
 * Routes registered later win over earlier ones; unmatched requests get 404.
 */
export class FakeUpstream {
  readonly requests: Recorded[] = [];
  /** Headers added to every answer (a hostile upstream's kilobytes of them); none unless set. */
  extraHeaders: Record<string, string> = {};
  /** False stops recording requests, for a flood whose requests no test reads. */
  recording = true;
  private routes: Route[] = [];
  private readonly sockets = new Set<Socket>();

  private readonly server: Server = createServer();

  constructor() {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('request', (req, res) => {
      for (const [name, value] of Object.entries(this.extraHeaders)) res.setHeader(name, value);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on(
        'end',
        () => void this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res),
      );
    });
  }

  static async start(port = 0): Promise<FakeUpstream> {
    return new FakeUpstream().listen(port);
  }

  /** Listens on loopback at `port`, or a free port. */
  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers `method` requests for `https://host/path` (path exact, or a RegExp on the path; host `*` is any host). */
  on(method: string, host: string, path: string | RegExp, reply: Canned | Handler): this {
    this.routes.unshift({ method: method.toUpperCase(), host, path, reply });
    return this;
  }

  /** The recorded requests for one host, optionally only those whose path starts with `pathPrefix`. */
  requestsTo(host: string, pathPrefix = ''): Recorded[] {
    return this.requests.filter((r) => r.host === host && r.path.startsWith(pathPrefix));
  }

  reset(): void {
    this.routes = [];
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    method: string,
    rawUrl: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    res: ServerResponse,
  ) {
    const url = new URL(rawUrl, 'http://fake');
    const [, host = '', ...rest] = url.pathname.split('/');
    const recorded: Recorded = { method, host, path: '/' + rest.join('/'), query: url.searchParams, headers, body };
    if (this.recording) this.requests.push(recorded);
    const route = this.routes.find(
      (r) =>
        (r.method === method || r.method === '*') &&
        (r.host === host || r.host === '*') &&
        (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)),
    );
    if (!route) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `no fake route for ${method} ${host}${recorded.path}` }));
      return;
    }
    if (typeof route.reply === 'function') {
      await route.reply(recorded, res);
      return;
    }
    const canned = route.reply;
    if (canned.delayMs) await delay(canned.delayMs);
    if (canned.hang) return;
    if (canned.destroy) {
      res.socket?.destroy();
      return;
    }
    const payload = canned.json !== undefined ? JSON.stringify(canned.json) : (canned.body ?? '');
    const type = canned.json !== undefined ? { 'content-type': 'application/json' } : {};
    res.writeHead(canned.status ?? 200, { ...type, ...canned.headers }).end(payload);
  }
}

/** An origin on loopback where nothing listens: a connection there is refused at once. */
export async function closedOrigin(): Promise<string> {
  const server = await FakeUpstream.start();
  const { origin } = server;
  await server.close();
  return origin;
}
