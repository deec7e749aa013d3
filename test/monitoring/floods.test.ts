import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';
import { INGEST_HOST, postEnvelope, startRelayBed, TEN_MB, type RelayBed } from '../support/telemetry-relay.js';
import { TOO_LARGE_ENVELOPE } from '../../routes/monitoring/envelope.js';

// The bar is an answer within 1 s that never delays another request by
// over 100 ms. Measured as the server's own CPU time, which a busy machine does
// not inflate the way it does wall time: under 100 ms of work in all, no
// stretch of it can hold the event loop for longer.
const CPU_BUDGET_MS = 100;

/** User plus system CPU milliseconds a process has used so far (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const header = (dsn: string) =>
  JSON.stringify({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc', dsn, sent_at: '2026-11-24T12:00:00.000Z' });

/** About 10 MB of the smallest items an envelope can hold (about 655,000 of them). */
function tinyItems(dsn: string): Buffer {
  const item = '\n{"type":"x"}\n';
  return Buffer.from(header(dsn) + item.repeat(Math.floor((TEN_MB - 200) / item.length)));
}

let bed: RelayBed;
before(async () => {
  bed = await startRelayBed();
});
after(() => bed.close());

async function post(body: Buffer): Promise<{ status: number; body: string; cpu: number }> {
  const pid = bed.server.child.pid!;
  const before = cpuMs(pid);
  const res = await postEnvelope(bed.server, body);
  return { ...res, cpu: cpuMs(pid) - before };
}

test('warm-up: an ordinary envelope is relayed', async () => {
  const res = await post(Buffer.from(`${header(EXAMPLE_TELEMETRY_DSN)}\n{"type":"event"}\n{"level":"error"}\n`));
  assert.equal(res.status, 200);
});

test('10 MB of tiny items for the right DSN: 413 before any item is read, within the CPU budget', async () => {
  const body = tinyItems(EXAMPLE_TELEMETRY_DSN);
  assert.ok(body.length > 9 * 1024 * 1024 && body.length <= TEN_MB);
  const relayed = bed.fake.requestsTo(INGEST_HOST).length;
  const res = await post(body);
  assert.equal(res.status, 413);
  assert.deepEqual(JSON.parse(res.body), { error: TOO_LARGE_ENVELOPE });
  assert.ok(res.cpu <= CPU_BUDGET_MS, `${res.cpu} ms of CPU`);
  assert.equal(bed.fake.requestsTo(INGEST_HOST).length, relayed, 'nothing relayed');
});

test('10 MB of tiny items for another DSN: 403 from the header line alone, within the CPU budget', async () => {
  const res = await post(tinyItems('https://other@o0.ingest.sentry.io/1'));
  assert.equal(res.status, 403);
  assert.ok(res.cpu <= CPU_BUDGET_MS, `${res.cpu} ms of CPU`);
});

test('a 10 MB attachment is refused unread, within the CPU budget', async () => {
  const size = TEN_MB - 1024;
  const body = Buffer.concat([
    Buffer.from(`${header(EXAMPLE_TELEMETRY_DSN)}\n${JSON.stringify({ type: 'attachment', length: size })}\n`),
    Buffer.alloc(size, 0xab),
    Buffer.from('\n'),
  ]);
  const relayed = bed.fake.requestsTo(INGEST_HOST).length;
  const res = await post(body);
  assert.equal(res.status, 413);
  assert.equal(bed.fake.requestsTo(INGEST_HOST).length, relayed, 'nothing relayed');
  assert.ok(res.cpu <= CPU_BUDGET_MS, `${res.cpu} ms of CPU`);
});
