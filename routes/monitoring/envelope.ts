import { HttpError } from '../../lib/http-error.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../lib/json-depth.js';

const INVALID_ENVELOPE = 'Invalid envelope';
export const TOO_DEEP_ENVELOPE = 'Envelope JSON is nested too deeply';

/** An envelope the tunnel refuses to relay; answered 400 `{"error":"Invalid envelope"}`, whatever is wrong with it. */
export class MalformedEnvelope extends HttpError {
  constructor() {
    super(400, INVALID_ENVELOPE);
  }
}

/**
 * A JSON line of the envelope (its header, an item header, an event) nested past
 * the JSON routes' depth rule; answered 400 before anything parses or rewrites it.
 */
export class EnvelopeTooDeep extends HttpError {
  constructor() {
    super(400, TOO_DEEP_ENVELOPE);
  }
}

export interface EnvelopeItem {
  /** The item header line exactly as received. */
  headerBytes: Buffer;
  header: Record<string, unknown>;
  payload: Buffer;
  /** An event item's payload, parsed: an event must be a JSON object, whether or not it is rewritten. */
  event?: Record<string, unknown>;
}

export interface Envelope {
  headerBytes: Buffer;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

const NEWLINE = 0x0a;

/** The JSON text of `bytes`, refused when nested deeper than the JSON routes allow. */
function shallowJson(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw new EnvelopeTooDeep();
  return text;
}

function parseHeader(bytes: Buffer): Record<string, unknown> {
  const text = shallowJson(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedEnvelope();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedEnvelope();
  return value as Record<string, unknown>;
}

function lineEnd(body: Buffer, from: number): number {
  const end = body.indexOf(NEWLINE, from);
  return end === -1 ? body.length : end;
}

// What a browser SDK sends: a handful of items, at most one event, and an event
// of at most 1 MB (Sentry's own limit). Past these the envelope is refused before
// any more of it is looked at, so no body up to the 10 MB limit can hold the
// event loop: 655,000 tiny items once held it for 3.7 s.
export const MAX_ITEMS = 100;
const MAX_EVENTS = 1;
export const MAX_EVENT_BYTES = 1024 * 1024;

/** The envelope's header line alone: enough to check its DSN before anything else is read. */
export function envelopeHeader(body: Buffer): {
  headerBytes: Buffer;
  header: Record<string, unknown>;
  itemsFrom: number;
} {
  const first = body.indexOf(NEWLINE);
  if (first === -1) throw new MalformedEnvelope();
  const headerBytes = body.subarray(0, first);
  return { headerBytes, header: parseHeader(headerBytes), itemsFrom: first + 1 };
}

/**
 * Splits a telemetry (Sentry) envelope: a JSON header line, then items, each a
 * JSON item header line and a payload that is either `length` bytes (binary
 * safe) or runs to the next newline. Payloads stay views of the body.
 */
export function parseEnvelope(body: Buffer): Envelope {
  const { headerBytes, header, itemsFrom } = envelopeHeader(body);
  const items: EnvelopeItem[] = [];
  let events = 0;
  let pos = itemsFrom;
  while (pos < body.length) {
    const headerEnd = lineEnd(body, pos);
    const itemHeaderBytes = body.subarray(pos, headerEnd);
    pos = headerEnd + 1;
    // A trailing newline after the last payload leaves an empty line behind.
    if (itemHeaderBytes.length === 0 && pos >= body.length) break;
    if (items.length === MAX_ITEMS) throw new MalformedEnvelope();
    const itemHeader = parseHeader(itemHeaderBytes);
    if (typeof itemHeader.type !== 'string') throw new MalformedEnvelope();
    const length = itemHeader.length;
    let payload: Buffer;
    if (length === undefined) {
      const end = pos > body.length ? body.length : lineEnd(body, pos);
      payload = body.subarray(Math.min(pos, body.length), end);
      pos = end + 1;
    } else {
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || pos + length > body.length) {
        throw new MalformedEnvelope();
      }
      payload = body.subarray(pos, pos + length);
      pos += length;
      if (pos < body.length) {
        if (body[pos] !== NEWLINE) throw new MalformedEnvelope();
        pos += 1;
      }
    }
    let event: Record<string, unknown> | undefined;
    if (itemHeader.type === 'event') {
      if (++events > MAX_EVENTS || payload.length > MAX_EVENT_BYTES) throw new MalformedEnvelope();
      // Other payloads are relayed as bytes, never parsed.
      event = parseHeader(payload);
    }
    items.push({ headerBytes: itemHeaderBytes, header: itemHeader, payload, event });
  }
  return { headerBytes, header, items };
}

/**
 * Writes `ip` into every event item's `user.ip_address`; the item's `length`
 * is recomputed when it had one. Every other item keeps its exact bytes.
 */
export function withVisitorIp(envelope: Envelope, ip: string): Envelope {
  const items = envelope.items.map((item) => {
    const event = item.event;
    if (event === undefined) return item;
    const user = typeof event.user === 'object' && event.user !== null && !Array.isArray(event.user) ? event.user : {};
    const payload = Buffer.from(JSON.stringify({ ...event, user: { ...user, ip_address: ip } }));
    if (item.header.length === undefined) return { ...item, payload };
    const header = { ...item.header, length: payload.length };
    return { header, headerBytes: Buffer.from(JSON.stringify(header)), payload };
  });
  return { ...envelope, items };
}

export function serialiseEnvelope(envelope: Envelope): Buffer {
  const parts: Buffer[] = [envelope.headerBytes];
  for (const item of envelope.items) parts.push(Buffer.of(NEWLINE), item.headerBytes, Buffer.of(NEWLINE), item.payload);
  parts.push(Buffer.of(NEWLINE));
  return Buffer.concat(parts);
}

/** The ingest URL of a DSN `https://{public key}@{host}/{path/}{project id}`, or undefined when it is not one. */
export function ingestUrl(dsn: string): string | undefined {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  const match = /^(.*)\/(\d+)\/?$/.exec(url.pathname);
  if (!url.username || !match || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return `${url.protocol}//${url.host}${match[1]}/api/${match[2]}/envelope/`;
}
