import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';
import { INGEST_HOST, postEnvelope, startRelayBed, TEN_MB, type RelayBed } from '../support/telemetry-relay.js';
import {
  MAX_ENVELOPE_BYTES,
  NOT_RELAYED_ITEM,
  parseEnvelope,
  TOO_LARGE_ENVELOPE,
} from '../../routes/monitoring/envelope.js';

// The tunnel relays what the site's SDK sends, one event, and nothing else; on server.ts itself, so the
// parser's 10 MB limit, the error handler and the relay are the ones a visitor meets.

let bed: RelayBed;
before(async () => {
  bed = await startRelayBed();
});
after(() => bed.close());

const envelopeHeader = JSON.stringify({
  event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
  dsn: EXAMPLE_TELEMETRY_DSN,
  sent_at: '2026-11-29T09:00:00.000Z',
  sdk: { name: 'sentry.javascript.vue', version: '11.11.0' },
});

/** An envelope as the SDK writes it: each item's header with its `length`, then its payload. */
function envelope(...items: Array<[Record<string, unknown>, Buffer]>): Buffer {
  const parts: Buffer[] = [Buffer.from(envelopeHeader)];
  for (const [itemHeader, payload] of items) {
    parts.push(Buffer.from(`\n${JSON.stringify({ ...itemHeader, length: payload.length })}\n`), payload);
  }
  return Buffer.concat([...parts, Buffer.from('\n')]);
}

/** An event item whose JSON is padded to `size` bytes. */
function event(size = 2000): [Record<string, unknown>, Buffer] {
  const bare = { event_id: '9ec79c33ec9942ab8353589fcb2e04dc', level: 'error', platform: 'javascript', message: '' };
  const padding = size - Buffer.byteLength(JSON.stringify(bare));
  return [{ type: 'event' }, Buffer.from(JSON.stringify({ ...bare, message: 'x'.repeat(padding) }))];
}

async function post(body: Buffer): Promise<{ status: number; body: string; relayed: Buffer[] }> {
  const before = bed.fake.requestsTo(INGEST_HOST).length;
  const res = await postEnvelope(bed.server, body);
  const relayed = bed.fake
    .requestsTo(INGEST_HOST)
    .slice(before)
    .map((r) => r.body);
  return { ...res, relayed };
}

test('an event as the site sends it is relayed as it came', async () => {
  const body = envelope(event());
  const res = await post(body);
  assert.equal(res.status, 200, res.body);
  assert.equal(res.relayed.length, 1);
  assert.ok(res.relayed[0]!.equals(body));
});

test("an item of a type the site's SDK never sends is 400 and nothing of the envelope is relayed", async () => {
  const others: Array<[Record<string, unknown>, Buffer]> = [
    [{ type: 'attachment', filename: 'dump.bin', content_type: 'application/octet-stream' }, Buffer.alloc(4096, 0xab)],
    [{ type: 'session' }, Buffer.from('{"sid":"abc","status":"ok"}')],
    [{ type: 'client_report' }, Buffer.from('{"timestamp":1,"discarded_events":[]}')],
    [{ type: 'replay_recording' }, Buffer.alloc(1024, 0x41)],
    [{ type: 'log' }, Buffer.from('{"items":[]}')],
  ];
  for (const other of others) {
    for (const body of [envelope(event(), other), envelope(other), envelope(other, event())]) {
      const res = await post(body);
      assert.equal(res.status, 400, `${JSON.stringify(other[0])}: ${res.body}`);
      assert.deepEqual(JSON.parse(res.body), { error: NOT_RELAYED_ITEM });
      assert.equal(res.relayed.length, 0);
    }
  }
});

test('the finding: an event with a 9.9 MB attachment is 413 Envelope too large, nothing relayed', async () => {
  const body = envelope(event(), [{ type: 'attachment', filename: 'big.bin' }, Buffer.alloc(9.9 * 1024 * 1024, 0x41)]);
  assert.ok(body.length <= TEN_MB);
  const res = await post(body);
  assert.equal(res.status, 413);
  assert.deepEqual(JSON.parse(res.body), { error: TOO_LARGE_ENVELOPE });
  assert.equal(res.relayed.length, 0);
});

test(`an envelope of ${MAX_ENVELOPE_BYTES} bytes is relayed, one byte more is 413; past 10 MB the parser's 413`, async () => {
  // The item header's `length` has as many digits as the event's size.
  const frame = envelope(event(100_000)).length - 100_000;
  const atLimit = envelope(event(MAX_ENVELOPE_BYTES - frame));
  assert.equal(atLimit.length, MAX_ENVELOPE_BYTES);
  const relayed = await post(atLimit);
  assert.equal(relayed.status, 200, relayed.body);
  assert.equal(parseEnvelope(relayed.relayed[0]!).items.length, 1);

  const over = await post(envelope(event(MAX_ENVELOPE_BYTES - frame + 1)));
  assert.equal(over.status, 413);
  assert.deepEqual(JSON.parse(over.body), { error: TOO_LARGE_ENVELOPE });
  assert.equal(over.relayed.length, 0);

  const pastParser = await post(envelope(event(TEN_MB)));
  assert.equal(pastParser.status, 413);
  assert.equal(pastParser.relayed.length, 0);
});

test('a second event is refused as an invalid envelope', async () => {
  const res = await post(envelope(event(), event()));
  assert.equal(res.status, 400);
  assert.deepEqual(JSON.parse(res.body), { error: 'Invalid envelope' });
  assert.equal(res.relayed.length, 0);
});
