import { request } from 'node:http';

export interface Streamed {
  /** The answer, when the client read one before the server closed. */
  status?: number;
  body?: string;
  /** The socket error instead, when the server closed while the client was still sending. */
  error?: string;
  /** Bytes the client got to send. */
  sent: number;
}

/**
 * POSTs `total` bytes to `path` in chunks without a Content-Length, as fast as
 * the server reads them, so only the server's own counting can stop it.
 */
export function chunkedUpload(
  origin: string,
  path: string,
  total: number,
  headers: Record<string, string>,
): Promise<Streamed> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let sent = 0;
    const req = request({ host: hostname, port, path, method: 'POST', agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, sent }));
    const chunk = Buffer.alloc(64 * 1024, 1);
    const write = (): void => {
      while (sent < total && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}
