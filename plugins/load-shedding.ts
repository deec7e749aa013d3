import { PerformanceObserver, constants, monitorEventLoopDelay, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.js';

// A second of event-loop delay means every request already waits that long;
// answering 503 at once lets the backlog drain instead of growing.
export const MAX_EVENT_LOOP_DELAY_MS = 1000;
// Near V8's heap limit the process would die of an out-of-memory error;
// refusing new work while it is there gives the collector a chance. The limit
// V8 reports counts the young generation (three semi-spaces of 16 MB unless
// --max-semi-space-size says otherwise, as bin/start.sh does), which the old
// generation, where kept objects live, can never use: 90 % of it (389 MB under
// --max-old-space-size=384, whose limit is 432 MB) lay past the point where
// the process died, and it died without a 503. So the share is of the old
// generation, and is held against what a full collection left live, not
// against a heap that may be three quarters garbage (lib/heap-growth.ts).
export const MAX_LIVE_HEAP_SHARE = 0.75;
const DEFAULT_SEMI_SPACE_MB = 16;
export const RETRY_AFTER_S = 10;
const SAMPLE_INTERVAL_MS = 1000;
// The delay monitor's own timer period, which every sample includes.
const RESOLUTION_MS = 10;

/** The young generation's share of V8's heap limit: the semi-space size this process was started with, on its command line or in NODE_OPTIONS. */
export function youngGenerationBytes(): number {
  // The last one given counts, as it does for V8; NODE_OPTIONS comes before the command line.
  const given = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv]
    .map((arg) => /^--max-semi-space-size=(\d+)$/.exec(arg)?.[1])
    .filter((mb) => mb !== undefined);
  return 3 * Number(given.at(-1) ?? DEFAULT_SEMI_SPACE_MB) * 1024 * 1024;
}

function isFullCollection(entry: PerformanceEntry): boolean {
  return (
    (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR
  );
}

/** Refused because the process is overwhelmed; an expected answer, so the error handler does not log it. */
export class Overloaded extends HttpError {
  constructor() {
    super(503, 'Service Unavailable');
  }
}

/**
 * Sheds load when the process is overwhelmed: 503 with Retry-After, before any
 * body is read or upstream called. Its samples open no file, so a full
 * descriptor table cannot make it throw (docs/decisions/0002).
 */
export default fp(
  async (app) => {
    const oldGenerationBytes = getHeapStatistics().heap_size_limit - youngGenerationBytes();
    const maxLiveHeapBytes = Math.floor(oldGenerationBytes * MAX_LIVE_HEAP_SHARE);
    const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    delay.enable();
    let slowLoop = false;
    let heapFull = false;
    const sampler = setInterval(() => {
      // No sample at all means the loop never turned in the whole interval.
      const delayMs = Number.isNaN(delay.mean) ? Infinity : delay.mean / 1e6 - RESOLUTION_MS;
      delay.reset();
      slowLoop = delayMs > MAX_EVENT_LOOP_DELAY_MS;
    }, SAMPLE_INTERVAL_MS);
    sampler.unref();
    // After every full collection, not once a second: a flood can fill the
    // last quarter of the heap in well under a second.
    const collections = new PerformanceObserver((list) => {
      if (!list.getEntries().some(isFullCollection)) return;
      const liveBytes = getHeapStatistics().used_heap_size;
      const full = liveBytes > maxLiveHeapBytes;
      if (full && !heapFull) {
        app.log.warn(
          {
            liveBytes,
            maxLiveHeapBytes,
            fix: 'raise --max-old-space-size in NODE_OPTIONS, or give the process more memory',
          },
          'heap near its limit: /api answers 503 until a full collection frees it',
        );
      }
      heapFull = full;
    });
    collections.observe({ entryTypes: ['gc'] });
    app.addHook('onClose', async () => {
      clearInterval(sampler);
      collections.disconnect();
      delay.disable();
    });
    // Not an async function: every request passes here, and a promise would
    // put the rest of its handling behind a microtask for nothing.
    app.addHook('onRequest', (_request, reply, done) => {
      if (!slowLoop && !heapFull) return done();
      reply.header('retry-after', RETRY_AFTER_S);
      done(new Overloaded());
    });
  },
  { name: 'load-shedding' },
);
