import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface Stalled {
  /** The answer's status line, once its first bytes came. */
  statusLine: string;
  /** Resolves once the connection has ended, by the server's close or a reset: what the client got by then. */
  closed: Promise<{ received: number }>;
  /** Starts reading again, as fast as the bytes come. */
  resume(): void;
  destroy(): void;
}

/** Counts what `socket` receives from now on; `stallAfterFirst` stops reading once the first bytes came. */
async function watch(socket: Socket, stallAfterFirst: boolean): Promise<Stalled> {
  let received = 0;
  let first: Buffer | undefined;
  const firstCame = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (first) return;
      first = chunk;
      // Paused here, in the same event, so no later chunk is read.
      if (stallAfterFirst) socket.pause();
      resolve();
    });
  });
  const closed = new Promise<{ received: number }>((resolve) => {
    // A reset (the server dropped what it had not sent) ends the connection as surely as its close.
    socket.on('error', () => undefined);
    socket.once('close', () => resolve({ received }));
  });
  if (stallAfterFirst) await Promise.race([firstCame, closed]);
  return {
    get statusLine() {
      return first?.toString('latin1').split('\r\n', 1)[0] ?? '';
    },
    closed,
    resume: () => socket.resume(),
    destroy: () => socket.destroy(),
  };
}

const head = (method: string, path: string, host: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n';

/**
 * A GET that reads the first bytes of its answer (the status line and
 * whatever came with it) and then stops reading, as a client that stalls: the
 * bytes pile up in its socket's receive buffer until the server can send no
 * more.
 */
export async function stalledDownload(origin: string, path: string, headers: Record<string, string>): Promise<Stalled> {
  const { hostname, port, host } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  const stalled = watch(socket, true);
  socket.write(head('GET', path, host, headers));
  return stalled;
}

/**
 * A POST declaring `declared` bytes that sends only `sent` of them and then
 * nothing more, as a client whose upload stalls.
 */
export async function stalledUpload(
  origin: string,
  path: string,
  headers: Record<string, string>,
  declared: number,
  sent: number,
): Promise<Stalled> {
  const { hostname, port, host } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  socket.write(head('POST', path, host, { ...headers, 'content-length': String(declared) }));
  socket.write(Buffer.alloc(sent, 1));
  return watch(socket, false);
}
