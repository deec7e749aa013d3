import type { FastifyBaseLogger } from 'fastify';
import type { Upstream } from '../../lib/upstream.js';
import { redactUrl } from '../../lib/logger.js';
import { UpstreamError, expectedFailure } from '../../lib/upstream-failure.js';
import type { DatasetStatus } from '../../operations/dataset-status.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';
import type { Provider } from './providers.js';
import type { Component, Detail, Incident, Indicator, Overview } from '../../contract/service-status.js';
import { readIncidents, readSummary } from './statuspage.js';

export const POLL_INTERVAL_MS = 5 * 60 * 1000;

interface Entry {
  indicator: Indicator;
  components: Component[];
  incidents: Incident[];
  /** When the summary shown was fetched; absent before the first one. */
  fetchedAt?: number;
}

const NO_DATA: Entry = { indicator: 'unknown', components: [], incidents: [] };

interface PollerOptions {
  upstream: Upstream;
  providers: readonly Provider[];
  logger: FastifyBaseLogger;
  now?: () => number;
}

/**
 * Keeps one entry per status page in memory, refreshed every 5 minutes, with
 * the overview JSON and each detail record built once per refresh, so the
 * routes never wait on a status page. A page whose summary fails keeps its
 * last good entry; one whose incidents alone fail keeps its last incidents.
 */
export class StatusPoller {
  private readonly entries = new Map<string, Entry>();
  /** Providers whose summary failed at the last refresh, whatever the reason. */
  private readonly failing = new Set<string>();
  private readonly now: () => number;
  private readonly refreshes: PeriodicCheck;
  private overviewRecord!: Overview;
  private overviewText = '';
  private readonly details = new Map<string, Detail>();
  private updatedAt: number | null = null;
  /** The providers whose summary the last refresh could not get, so an outage is told once, not every 5 minutes. */
  private unreached: string[] = [];

  constructor(private readonly options: PollerOptions) {
    this.now = options.now ?? Date.now;
    this.refreshes = new PeriodicCheck({
      id: 'service-status',
      run: () => this.refresh(),
      firstAfterMs: POLL_INTERVAL_MS,
      everyMs: POLL_INTERVAL_MS,
      onError: (err) => this.options.logger.error({ err }, 'service-status refresh failed'),
    });
    this.publish();
  }

  /** Fetches every provider in parallel; each is bounded by the upstream timeout. */
  async refresh(): Promise<void> {
    const reasons = await Promise.all(this.options.providers.map((provider) => this.refreshOne(provider)));
    this.updatedAt = this.now();
    this.publish();
    this.tellUnreached(
      this.options.providers.flatMap((provider, i) =>
        reasons[i] === undefined ? [] : [[provider.id, reasons[i]] as const],
      ),
    );
  }

  /**
   * Status pages not reached for an expected reason make one line for all of
   * them, written when the set changes; the same outage five minutes later
   * goes to debug.
   */
  private tellUnreached(unreached: ReadonlyArray<readonly [id: string, reason: string]>): void {
    const { logger } = this.options;
    const ids = unreached.map(([id]) => id);
    const changed = ids.join(',') !== this.unreached.join(',');
    this.unreached = ids;
    if (unreached.length === 0) {
      if (changed) logger.info('service status: every status page answers again');
      return;
    }
    const msg =
      `service status: ${unreached.length} of ${this.options.providers.length} status pages not reached (${ids.join(', ')}; e.g. ${unreached[0]![1]}): ` +
      `/api/service-status shows their last state or unknown; tried again every ${POLL_INTERVAL_MS / 60_000} minutes`;
    const context = { reasons: Object.fromEntries(unreached) };
    if (changed) logger.warn(context, msg);
    else logger.debug(context, msg);
  }

  /** For /readyz and the metrics: stale while any page's summary is missing or failed its last refresh, dated by the oldest shown. */
  status(): DatasetStatus {
    const fetched = this.options.providers.flatMap((p) => this.entries.get(p.id)?.fetchedAt ?? []);
    if (fetched.length === 0) return { state: 'missing', updatedAt: null };
    const stale = fetched.length < this.options.providers.length || this.failing.size > 0;
    return { state: stale ? 'stale' : 'loaded', updatedAt: new Date(Math.min(...fetched)) };
  }

  /** A refresh every 5 minutes from now, until stop(); the start-up step runs the first one. */
  start(): void {
    this.refreshes.start();
  }

  stop(): void {
    this.refreshes.stop();
  }

  overview(): Overview {
    return this.overviewRecord;
  }

  /** Whether a round of checks has ended: before it every light is `unknown`, an answer no cache may keep. */
  get checked(): boolean {
    return this.updatedAt !== null;
  }

  /** The overview as JSON, written once per refresh: the route sends it as it is. */
  overviewJson(): string {
    return this.overviewText;
  }

  /** One provider's detail (empty arrays before its first data), or undefined for an id not in the list. */
  detail(id: string): Detail | undefined {
    return this.details.get(id);
  }

  /** Refreshes one provider; resolves to the reason its summary failed when that is an expected one. */
  private async refreshOne(provider: Provider): Promise<string | undefined> {
    const { upstream, logger } = this.options;
    // Both documents are fetched side by side, so one provider costs at most one upstream timeout.
    const [summaryAnswer, incidentsAnswer] = await Promise.allSettled([
      upstream.okJson(`${provider.page}/api/v2/summary.json`),
      upstream.okJson(`${provider.page}/api/v2/incidents.json`),
    ]);
    const previous = this.entries.get(provider.id) ?? NO_DATA;
    const summary = summaryAnswer.status === 'fulfilled' ? readSummary(summaryAnswer.value, provider) : undefined;
    const freshIncidents =
      incidentsAnswer.status === 'fulfilled' ? readIncidents(incidentsAnswer.value, provider) : undefined;
    if (!freshIncidents) {
      logger.debug({ provider: provider.id }, 'service-status incidents unavailable; keeping the last ones');
    }
    const incidents = freshIncidents ?? previous.incidents;
    if (summary) {
      this.entries.set(provider.id, { ...summary, incidents, fetchedAt: this.now() });
      this.failing.delete(provider.id);
      return undefined;
    }
    this.failing.add(provider.id);
    const err =
      summaryAnswer.status === 'rejected'
        ? summaryAnswer.reason
        : new UpstreamError('summary.json is not in the Statuspage shape');
    const reason = expectedFailure(err);
    if (!reason) {
      logger.warn(
        { err, provider: provider.id, url: redactUrl(provider.page) },
        'service-status summary unavailable; keeping the last good entry',
      );
    }
    // A status page blinks now and then; a light that was known stays as it was rather than turning unknown.
    const kept = previous.indicator === 'unknown' ? NO_DATA : previous;
    this.entries.set(provider.id, {
      indicator: kept.indicator,
      components: kept.components,
      incidents,
      fetchedAt: kept.fetchedAt,
    });
    return reason;
  }

  private publish(): void {
    const providers = this.options.providers.map((p) => {
      const entry = this.entries.get(p.id) ?? NO_DATA;
      const checkedAt = entry.fetchedAt === undefined ? null : new Date(entry.fetchedAt).toISOString();
      return { id: p.id, name: p.name, page: p.page, indicator: entry.indicator, checkedAt };
    });
    this.overviewRecord = {
      updatedAt: this.updatedAt === null ? null : new Date(this.updatedAt).toISOString(),
      providers,
    };
    this.overviewText = JSON.stringify(this.overviewRecord);
    for (const provider of this.options.providers) {
      const entry = this.entries.get(provider.id) ?? NO_DATA;
      this.details.set(provider.id, { id: provider.id, components: entry.components, incidents: entry.incidents });
    }
  }
}
