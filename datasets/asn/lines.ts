import type { Readable } from 'node:stream';

/** Gives the event loop a turn between slices of a long computation. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls `onLine` for every line of a text stream. Work happens one stream
 * chunk (64 KiB by default) at a time, so a large file never holds the event
 * loop for long; a yield after every chunk lets queued requests in even when
 * the chunks are already buffered.
 */
export async function eachLine(stream: Readable, onLine: (line: string, lineNo: number) => void): Promise<number> {
  stream.setEncoding('utf8');
  let rest = '';
  let lineNo = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      rest = text;
      continue;
    }
    let start = 0;
    while (start <= end) {
      const nl = text.indexOf('\n', start);
      onLine(text.slice(start, nl).replace(/\r$/, ''), ++lineNo);
      start = nl + 1;
    }
    rest = text.slice(end + 1);
    await yieldToLoop();
  }
  if (rest) onLine(rest.replace(/\r$/, ''), ++lineNo);
  return lineNo;
}

/** A file or stream that does not parse as the dataset it claims to be. */
export class DatasetFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetFormatError';
  }
}

const NEWLINE = 0x0a;

/**
 * Like eachLine, but hands over byte ranges of the chunk instead of strings:
 * a half-million-line file then allocates almost nothing per line, which
 * keeps the garbage collector's pauses out of the event loop.
 */
export async function eachLineBytes(
  stream: Readable,
  onLine: (buf: Buffer, start: number, end: number, lineNo: number) => void,
): Promise<number> {
  let rest: Buffer | null = null;
  let lineNo = 0;
  for await (const raw of stream as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    const buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      onLine(buf, start, nl, ++lineNo);
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
    await yieldToLoop();
  }
  if (rest) onLine(rest, 0, rest.length, ++lineNo);
  return lineNo;
}
