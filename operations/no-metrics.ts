import type { AppMetrics, Metrics } from './metrics.js';

// Apart from metrics.ts, which loads prom-client: a process without METRICS never loads it.

/** What the service counts into with METRICS off: nothing. */
export const NO_METRICS: AppMetrics = { limiterEntries: { inc: () => {} } };

/** Whether `metrics` is the Prometheus registry (METRICS=true), not the stand-in. */
export const isCounting = (metrics: AppMetrics): metrics is Metrics => metrics !== NO_METRICS;
