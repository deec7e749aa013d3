import { request, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RawOptions {
  method?: string;
  /** Sent as given, Connection and Expect included. */
  headers?: Record<string, string>;
  /** Sent after the server's 100 Continue when the headers hold `Expect: 100-continue`, else at once. */
  body?: string;
}

/**
 * One request over a real socket with the request target sent exactly as
 * given (no URL normalisation, so `/../x` and `%2e%2e` reach the server as
 * written), and the body as received, still encoded.
 */
export function rawRequest(origin: string, target: string, options: RawOptions = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const expectsContinue = Object.entries(options.headers ?? {}).some(
      ([name, value]) => name.toLowerCase() === 'expect' && value.toLowerCase() === '100-continue',
    );
    if (expectsContinue) req.once('continue', () => req.end(options.body));
    else req.end(options.body);
  });
}
