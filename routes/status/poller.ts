import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { FastifyBaseLogger } from 'fastify';
import type { Upstream } from '../../lib/upstream.js';
import { redactUrl } from '../../lib/logger.js';
import type { Provider } from './providers.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';

export const POLL_INTERVAL_MS = 5 * 60 * 1000;
// Bounds that keep the detail record small whatever a status page publishes.
const MAX_COMPONENTS = 60;
const MAX_INCIDENTS = 10;
const MAX_TEXT = 200;

// What we read of Atlassian Statuspage's summary.json and incidents.json; any
// other field a page adds is ignored.
const Component = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  group: Type.Optional(Type.Boolean()),
  group_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const Incident = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  impact: Type.String(),
  created_at: Type.String(),
  updated_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  resolved_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  shortlink: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const Summary = Type.Object({
  status: Type.Object({ indicator: Type.String(), description: Type.String() }),
  components: Type.Array(Component),
  incidents: Type.Array(Incident),
});
const Incidents = Type.Object({ incidents: Type.Array(Incident) });
const checkSummary = Compile(Summary);
const checkIncidents = Compile(Incidents);
type IncidentIn = Static<typeof Incident>;

const Indicator = Type.Union([
  Type.Literal('none'),
  Type.Literal('minor'),
  Type.Literal('major'),
  Type.Literal('critical'),
  Type.Literal('maintenance'),
  Type.Literal('unknown'),
]);
type Indicator = Static<typeof Indicator>;

const Light = {
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  indicator: Indicator,
  description: Type.String(),
  /** When the shown snapshot was fetched; null before the first success. */
  checkedAt: Type.Union([Type.String(), Type.Null()]),
  /** True when the last refresh failed and an older snapshot (or none) is shown. */
  stale: Type.Boolean(),
  /** Age of the shown snapshot in seconds at the last refresh; null before the first success. */
  ageSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
};

export const Overview = Type.Object({
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  providers: Type.Array(Type.Object(Light, { additionalProperties: false })),
});
export type Overview = Static<typeof Overview>;

export const Detail = Type.Object(
  {
    ...Light,
    components: Type.Array(
      Type.Object({ name: Type.String(), status: Type.String(), group: Type.Union([Type.String(), Type.Null()]) }),
      { maxItems: MAX_COMPONENTS },
    ),
    incidents: Type.Array(
      Type.Object({
        name: Type.String(),
        status: Type.String(),
        impact: Type.String(),
        createdAt: Type.String(),
        resolvedAt: Type.Union([Type.String(), Type.Null()]),
        url: Type.Union([Type.String(), Type.Null()]),
      }),
      { maxItems: MAX_INCIDENTS },
    ),
  },
  { additionalProperties: false },
);
export type Detail = Static<typeof Detail>;

interface Snapshot {
  indicator: Indicator;
  description: string;
  components: Detail['components'];
  incidents: Detail['incidents'];
  fetchedAt: number;
}

interface ProviderState {
  provider: Provider;
  snapshot?: Snapshot;
  stale: boolean;
}

const INDICATORS = new Set<string>(['none', 'minor', 'major', 'critical', 'maintenance']);
const text = (value: string) => value.slice(0, MAX_TEXT);

function incidentView(i: IncidentIn): Detail['incidents'][number] {
  return {
    name: text(i.name),
    status: text(i.status),
    impact: text(i.impact),
    createdAt: text(i.created_at),
    resolvedAt: i.resolved_at ? text(i.resolved_at) : null,
    url: i.shortlink ? text(i.shortlink) : null,
  };
}

interface PollerOptions {
  upstream: Upstream;
  providers: readonly Provider[];
  logger: FastifyBaseLogger;
  now?: () => number;
}

/**
 * Keeps one snapshot per status page in memory, refreshed every 5 minutes,
 * with the overview and detail records built once per refresh, so the routes
 * only serialise them and never wait on a status page. A page that fails keeps its last good snapshot,
 * marked stale.
 */
export class StatusPoller {
  private readonly states: ProviderState[];
  private readonly now: () => number;
  private readonly refreshes: PeriodicCheck;
  private overviewRecord!: Overview;
  private overviewText = '';
  private readonly details = new Map<string, Detail>();
  private updatedAt: number | null = null;

  constructor(private readonly options: PollerOptions) {
    this.now = options.now ?? Date.now;
    this.states = options.providers.map((provider) => ({ provider, stale: false }));
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
    await Promise.all(this.states.map((state) => this.refreshOne(state)));
    this.updatedAt = this.now();
    this.publish();
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

  /** The overview as JSON, written once per refresh: the route sends it as it is. */
  overviewJson(): string {
    return this.overviewText;
  }

  /** One provider's detail, or undefined for a slug not in the list. */
  detail(slug: string): Detail | undefined {
    return this.details.get(slug);
  }

  private async refreshOne(state: ProviderState): Promise<void> {
    const { upstream, logger } = this.options;
    const base = state.provider.url;
    try {
      // Both pages are fetched side by side, so one provider costs at most one upstream timeout.
      const [summary, recent] = await Promise.all([
        upstream.okJson(`${base}/api/v2/summary.json`),
        upstream.okJson(`${base}/api/v2/incidents.json`).catch((err: unknown) => {
          logger.debug({ err, url: redactUrl(`${base}/api/v2/incidents.json`) }, 'recent incidents unavailable; using the summary');
          return undefined;
        }),
      ]);
      if (!checkSummary.Check(summary)) throw new Error('summary.json does not have the Statuspage shape');
      state.snapshot = this.snapshot(summary, checkIncidents.Check(recent) ? recent.incidents : []);
      state.stale = false;
    } catch (err) {
      state.stale = true;
      logger.warn({ err, provider: state.provider.slug, url: redactUrl(base) }, 'service-status refresh failed; keeping the last snapshot');
    }
  }

  private snapshot(summary: Static<typeof Summary>, recent: IncidentIn[]): Snapshot {
    const groups = new Map(summary.components.filter((c) => c.group).map((c) => [c.id, c.name]));
    const components = summary.components
      .filter((c) => !c.group)
      .slice(0, MAX_COMPONENTS)
      .map((c) => ({
        name: text(c.name),
        status: text(c.status),
        group: c.group_id ? text(groups.get(c.group_id) ?? '') || null : null,
      }));
    // Open incidents first (the summary lists only those), then the most recent others.
    const seen = new Set<string>();
    const incidents: IncidentIn[] = [];
    for (const incident of [...summary.incidents, ...recent]) {
      if (seen.has(incident.id)) continue;
      seen.add(incident.id);
      incidents.push(incident);
    }
    const indicator = summary.status.indicator;
    return {
      indicator: INDICATORS.has(indicator) ? (indicator as Indicator) : 'unknown',
      description: text(summary.status.description),
      components,
      incidents: incidents.slice(0, MAX_INCIDENTS).map(incidentView),
      fetchedAt: this.now(),
    };
  }

  private light(state: ProviderState) {
    const { provider, snapshot, stale } = state;
    return {
      id: provider.slug,
      name: provider.name,
      url: provider.url,
      indicator: snapshot?.indicator ?? 'unknown',
      description: snapshot?.description ?? '',
      checkedAt: snapshot ? new Date(snapshot.fetchedAt).toISOString() : null,
      stale,
      ageSeconds: snapshot ? Math.max(0, Math.floor((this.now() - snapshot.fetchedAt) / 1000)) : null,
    } satisfies Overview['providers'][number];
  }

  private publish(): void {
    this.overviewRecord = {
      updatedAt: this.updatedAt === null ? null : new Date(this.updatedAt).toISOString(),
      providers: this.states.map((s) => this.light(s)),
    };
    this.overviewText = JSON.stringify(this.overviewRecord);
    for (const state of this.states) {
      this.details.set(state.provider.slug, {
        ...this.light(state),
        components: state.snapshot?.components ?? [],
        incidents: state.snapshot?.incidents ?? [],
      });
    }
  }
}
