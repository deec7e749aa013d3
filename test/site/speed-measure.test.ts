import { test } from 'node:test';
import assert from 'node:assert/strict';
import SpeedTest from '@cloudflare/speedtest';
import { checkReport } from '../../contract/report.js';
import {
  mbps,
  speedSection,
  NO_FIGURES,
  type Figures,
  type Scores,
} from '../../web/site/src/features/speed/figures.js';
import { startRun } from '../../web/site/src/features/speed/run.js';

// The real engine (@cloudflare/speedtest) driven through our run, with the
// browser's fetch and resource timings faked: every request's timing is
// chosen here, so the figures it must give are known.

type Timing = { ttfb: number; payload: number; size: number };

/** A browser of fetch and PerformanceResourceTiming whose requests take the times `timing` chooses. */
function fakeBrowser(timing: (bytes: number, upload: boolean, ping: number) => Timing) {
  const entries = new Map<string, object>();
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = { window: g.window, fetch: g.fetch, entries: performance.getEntriesByName };
  const requests: string[] = [];
  let pings = 0;
  g.window = { location: { origin: 'https://site.example' } };
  g.fetch = async (url: string, init?: { method?: string }) => {
    const upload = init?.method === 'POST';
    const bytes = Number(new URL(url).searchParams.get('bytes'));
    requests.push(`${upload ? 'POST' : 'GET'} ${new URL(url).pathname} ${bytes}`);
    const t = timing(bytes, upload, bytes === 0 && !upload ? pings++ : -1);
    const start = 1000;
    entries.set(url, {
      transferSize: t.size,
      requestStart: start,
      responseStart: start + t.ttfb,
      responseEnd: start + t.ttfb + t.payload,
      connectStart: 0,
      connectEnd: 0,
      secureConnectionStart: 0,
      nextHopProtocol: 'http/1.1',
    });
    return new Response(upload ? '{"bytes":0}' : '', { status: 200 });
  };
  performance.getEntriesByName = ((name: string) => (entries.has(name) ? [entries.get(name)] : [])) as never;
  return {
    requests,
    restore() {
      g.window = saved.window;
      g.fetch = saved.fetch;
      performance.getEntriesByName = saved.entries;
    },
  };
}

/** One run of the real engine against /speed, quietly (the engine logs every measurement). */
async function measure(sizes: { down: number; up: number }) {
  const log = console.log;
  console.log = () => {};
  try {
    return await new Promise<{ figures: Figures; scores: Scores }>((resolve, reject) => {
      startRun((config) => new SpeedTest(config), 'server', sizes, {
        progress: () => {},
        finished: (figures, scores) => resolve({ figures, scores }),
        failed: (failure) => reject(new Error(`the run failed: ${JSON.stringify(failure)}`)),
      });
    });
  } finally {
    console.log = log;
  }
}

const PINGS = [12, 18];

test('download and upload Mb/s come from bytes over time, latency is the median ping and jitter the mean gap', async () => {
  // Idle pings alternate 12 and 18 ms. A 100 kB download takes 16 ms (50 Mb/s),
  // a 1 MB download 80 ms (100 Mb/s); uploads answer after 8 × bytes × 1.005 / 100 Mb/s.
  const browser = fakeBrowser((bytes, upload, ping) => {
    if (upload) return { ttfb: (8 * bytes * 1.005) / 100e3, payload: 0, size: 300 };
    if (bytes === 0) return { ttfb: PINGS[Math.max(0, ping) % 2]!, payload: 0, size: 0 };
    const ms = bytes === 100_000 ? 16 : (8 * bytes) / 100e3;
    return { ttfb: 10, payload: ms - 10, size: bytes };
  });
  try {
    const { figures } = await measure({ down: 1_000_000, up: 1_000_000 });
    // The 90th percentile of the transfers: 4 at 50 Mb/s, 4 at 100.
    assert.equal(figures.downloadMbps, 100);
    assert.deepEqual(figures.downloadPoints, [50, 50, 50, 50, 100, 100, 100, 100]);
    assert.equal(figures.uploadMbps, 100);
    assert.equal(figures.latencyMs, 15);
    assert.equal(figures.jitterMs, 6);
    // No transfer lasted the quarter second a loaded ping needs: not measured, not 0 ms.
    assert.equal(figures.loadedLatencyDownMs, null);
    assert.equal(figures.loadedLatencyUpMs, null);
    // Ramping up to the chosen size and never past it, only on this server's endpoints.
    assert.ok(browser.requests.every((r) => /^(GET \/speed\/down|POST \/speed\/up) /.test(r)));
    assert.equal(Math.max(...browser.requests.map((r) => Number(r.split(' ')[2]))), 1_000_000);
  } finally {
    browser.restore();
  }
});

test('megabits per second are 10^6 bits, to two decimals; nothing measured is null', () => {
  assert.equal(mbps(123_456_789), 123.46);
  assert.equal(mbps(8_000), 0.01);
  assert.equal(mbps(undefined), null);
  assert.equal(mbps(Number.NaN), null);
  assert.equal(mbps(-5), null);
  assert.equal(mbps(0), null);
});

test('the report section holds what was measured, within the whitelist, and the service accepts it', () => {
  const figures: Figures = {
    ...NO_FIGURES,
    downloadMbps: 2e6,
    uploadMbps: 45.5,
    latencyMs: 12,
    jitterMs: 1.5,
    loadedLatencyDownMs: 80,
  };
  const scores: Scores = { streaming: { points: 40, quality: 'great' }, gaming: { points: 12, quality: 'average' } };
  const section = speedSection(figures, scores, { ip: '9.9.9.9', colo: 'FRA', coloCity: 'x'.repeat(100) });
  assert.deepEqual(section, {
    downloadMbps: 1e6,
    uploadMbps: 45.5,
    latencyMs: 12,
    jitterMs: 1.5,
    loadedLatencyDownMs: 80,
    loadedLatencyUpMs: null,
    scores: { streaming: 40, gaming: 12 },
    qualities: { streaming: 'great', gaming: 'average' },
    connection: { ip: '9.9.9.9', colo: 'FRA', coloCity: 'x'.repeat(64) },
  });
  const report = {
    v: 1,
    generatedAt: new Date().toISOString(),
    origin: 'localhost',
    locale: 'en',
    sections: { speedtest: { testedAt: new Date().toISOString(), ...section } },
  };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
  // An address the engine did not give cleanly is left out rather than refused.
  assert.equal(speedSection(NO_FIGURES, {}, { ip: 'unknown' }).connection, undefined);
});
