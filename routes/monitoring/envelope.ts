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
  /** The payload, parsed: an event must be a JSON object, whether or not it is rewritten. */
  event: Record<string, unknown>;
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

// What the site's SDK sends (web/site/src/telemetry/report-errors.ts: no sessions, client reports, attachments
// or tracing) is one `event` item of a few KB (at most 50 frames for each of 6 linked errors, values cut at
// 250 characters), so nothing else is relayed: a 9.9 MB attachment once went through, 5.9 GB of egress per
// client per 20 minutes at the route's limit. The whole envelope is bounded, headers included, since the
// header lines are relayed as they came too; the 10 MB body limit stays the parser's (the spec).
export const MAX_ENVELOPE_BYTES = 256 * 1024;
const RELAYED_TYPE = 'event';
const MAX_EVENTS = 1;
export const TOO_LARGE_ENVELOPE = 'Envelope too large';
export const NOT_RELAYED_ITEM = 'Only event items are relayed';

/** An envelope past MAX_ENVELOPE_BYTES: answered 413 before any item is read. */
export class EnvelopeTooLarge extends HttpError {
  constructor() {
    super(413, TOO_LARGE_ENVELOPE);
  }
}

/** An item of a type the site never sends (attachment, session, replay…): the whole envelope is refused, 400. */
export class ItemNotRelayed extends HttpError {
  constructor() {
    super(400, NOT_RELAYED_ITEM);
  }
}

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
 * JSON item header line and a payload that is either `length` bytes or runs to
 * the next newline. Only an envelope the site's SDK could have sent gets through:
 * at most MAX_ENVELOPE_BYTES, and at most one item, an event.
 */
export function parseEnvelope(body: Buffer): Envelope {
  if (body.length > MAX_ENVELOPE_BYTES) throw new EnvelopeTooLarge();
  const { headerBytes, header, itemsFrom } = envelopeHeader(body);
  const items: EnvelopeItem[] = [];
  let pos = itemsFrom;
  while (pos < body.length) {
    const headerEnd = lineEnd(body, pos);
    const itemHeaderBytes = body.subarray(pos, headerEnd);
    pos = headerEnd + 1;
    // A trailing newline after the last payload leaves an empty line behind.
    if (itemHeaderBytes.length === 0 && pos >= body.length) break;
    const itemHeader = parseHeader(itemHeaderBytes);
    if (typeof itemHeader.type !== 'string') throw new MalformedEnvelope();
    // Refused at its header, before its payload is looked for: the walk ends at the first item not relayed.
    if (itemHeader.type !== RELAYED_TYPE) throw new ItemNotRelayed();
    if (items.length === MAX_EVENTS) throw new MalformedEnvelope();
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
    items.push({ headerBytes: itemHeaderBytes, header: itemHeader, payload, event: parseHeader(payload) });
  }
  return { headerBytes, header, items };
}

/**
 * Writes `ip` into every event item's `user.ip_address`; the item's `length`
 * is recomputed when it had one.
 */
export function withVisitorIp(envelope: Envelope, ip: string): Envelope {
  const items = envelope.items.map((item) => {
    const event = item.event;
    const user = typeof event.user === 'object' && event.user !== null && !Array.isArray(event.user) ? event.user : {};
    const payload = Buffer.from(JSON.stringify({ ...event, user: { ...user, ip_address: ip } }));
    if (item.header.length === undefined) return { ...item, payload };
    const header = { ...item.header, length: payload.length };
    return { ...item, header, headerBytes: Buffer.from(JSON.stringify(header)), payload };
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
