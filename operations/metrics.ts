import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ageSeconds } from './dataset-status.js';
import type { Listener, Readiness } from './readiness.js';

/** `rate` (the global limiter), `slow-down`, or a route limiter's name (`telemetry`). */
export type LimiterName = string;

/** What the rest of the service counts into; a no-op when METRICS is off, so callers never check. */
export interface AppMetrics {
  /** One per client entering a limited state (the rate limiter's 429s, the slow-down's delays, the telemetry limiter). */
  limiterEntries: { inc(labels: { limiter: LimiterName }): void };
}

/** How an upstream call ended: the status class of its answer, or why there was none. */
export type UpstreamOutcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'error';

// A cheap route answers in well under a millisecond; an upstream call takes
// tens to thousands, capped by the 8 s timeout. The buckets follow each.
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UPSTREAM_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

/**
 * The Prometheus registry of one process (METRICS=true): requests and
 * upstream calls with their latency, limiter entries, dataset ages, and
 * prom-client's default process metrics (event-loop delay, heap, CPU, GC).
 */
export class Metrics implements AppMetrics {
  readonly registry = new Registry();
  readonly limiterEntries: Counter<'limiter'>;
  private readonly requests: Histogram<'listener' | 'route' | 'method' | 'status'>;
  private readonly upstream: Histogram<'provider' | 'outcome'>;

  constructor(readiness: Readiness) {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'netdiag_http_request_duration_seconds',
      help: 'Requests answered, by listener, route pattern, method and status, with the time to answer them',
      labelNames: ['listener', 'route', 'method', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.upstream = new Histogram({
      name: 'netdiag_upstream_request_duration_seconds',
      help: 'Outbound HTTP calls, by upstream host and outcome, with the time to the answer headers',
      labelNames: ['provider', 'outcome'],
      buckets: UPSTREAM_BUCKETS,
      registers,
    });
    this.limiterEntries = new Counter({
      name: 'netdiag_limiter_entries_total',
      help: 'Clients entering a limited state, by limiter (rate, slow-down, telemetry)',
      labelNames: ['limiter'],
      registers,
    });
    // A gauge joins its registry as it is made, and its collect() fills it at each scrape.
    // eslint-disable-next-line no-new
    new Gauge({
      name: 'netdiag_dataset_loaded',
      help: 'Whether a local dataset is loaded (1) or missing (0)',
      labelNames: ['dataset'],
      registers,
      collect() {
        this.reset();
        for (const [name, status] of readiness.datasets()) {
          this.set({ dataset: name }, status.state === 'missing' ? 0 : 1);
        }
      },
    });
    // eslint-disable-next-line no-new
    new Gauge({
      name: 'netdiag_dataset_age_seconds',
      help: 'Age of the data in use of each loaded dataset (see operations/README.md for what each counts from)',
      labelNames: ['dataset'],
      registers,
      collect() {
        this.reset();
        const now = Date.now();
        for (const [name, status] of readiness.datasets()) {
          const age = ageSeconds(status, now);
          if (age !== null) this.set({ dataset: name }, age);
        }
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** `route` is the route's pattern (never the raw URL, which would make one series per address asked about). */
  observeRequest(listener: Listener, route: string | undefined, method: string, status: number, ms: number): void {
    this.requests.labels(listener, route ?? 'unmatched', method, String(status)).observe(ms / 1000);
  }

  readonly observeUpstream = (provider: string, outcome: UpstreamOutcome, seconds: number): void => {
    this.upstream.labels(provider, outcome).observe(seconds);
  };

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
