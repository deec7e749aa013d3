import { Type, type Static } from 'typebox';
import { Nullable } from '../schemas/nullable.js';
import { ageSeconds, DatasetState, LoadedDatabase, type DatasetStatus } from './dataset-status.js';
import type { StepProgress } from '../lib/lifecycle.js';

export type Listener = 'api' | 'front';

const DatasetReport = Type.Object({
  state: DatasetState,
  updatedAt: Nullable(Type.String()),
  ageSeconds: Nullable(Type.Integer({ minimum: 0 })),
  database: Type.Optional(LoadedDatabase),
});

// Each dataset /readyz and the metrics report, in the order they are shown; present once registered.
const Datasets = Type.Object({
  geoCity: Type.Optional(DatasetReport),
  geoAsn: Type.Optional(DatasetReport),
  asRelationships: Type.Optional(DatasetReport),
  asOrganisations: Type.Optional(DatasetReport),
  rdapBootstrap: Type.Optional(DatasetReport),
  tldList: Type.Optional(DatasetReport),
  serviceStatus: Type.Optional(DatasetReport),
});
export type DatasetName = keyof Static<typeof Datasets>;
export const DATASETS = Object.keys(Datasets.properties) as DatasetName[];

/**
 * Where shared reports live (REPORT_STORE) and whether that store takes new
 * reports now; the local store adds whether it gives back stored ones, what
 * is wrong (`problem`) and what its repair at start-up found (`repaired`).
 */
const ReportStoreState = Type.Object({
  kind: Type.Enum(['kv', 'redis', 'local']),
  ready: Type.Boolean(),
  readable: Type.Optional(Type.Boolean()),
  problem: Type.Optional(Type.String()),
  repaired: Type.Optional(Type.String()),
});
type ReportStoreState = Static<typeof ReportStoreState>;

/** A Redis the service uses: whether its link can be used now, and its eviction policy (null: not read, or refused). */
const RedisState = Type.Object({ ready: Type.Boolean(), evictionPolicy: Nullable(Type.String()) });
type RedisState = Static<typeof RedisState>;

/** Each Redis by what it holds: the limiters' counters and the reports in one, or each in its own. */
const RedisLinks = Type.Object({
  limits: Type.Optional(RedisState),
  reports: Type.Optional(RedisState),
  limitsAndReports: Type.Optional(RedisState),
});
export type RedisKeys = keyof Static<typeof RedisLinks>;

/**
 * The start-up steps not over yet, by name (`geo databases`, `asn-datasets`,
 * …): the listeners open at once, and the process is ready only once this is
 * gone. Absent when nothing is loading.
 */
const Loading = Type.Record(Type.String(), Type.Enum(['running', 'waiting']));

/** The API listener's /readyz answer. */
export const ReadinessReport = Type.Object({
  ready: Type.Boolean(),
  listeners: Type.Object({ api: Type.Boolean(), front: Type.Boolean() }),
  loading: Type.Optional(Loading),
  datasets: Datasets,
  reportStore: Type.Optional(ReportStoreState),
  redis: Type.Optional(RedisLinks),
});
export type ReadinessReport = Static<typeof ReadinessReport>;

/**
 * Whether the process is ready to serve (both listeners up) and what each
 * dataset it holds looks like. Capabilities register a read-only status per
 * dataset; server.ts marks each listener once it listens.
 */
export class Readiness {
  private readonly sources = new Map<DatasetName, () => DatasetStatus>();
  private readonly up: Record<Listener, boolean> = { api: false, front: false };
  private reportStore: (() => ReportStoreState) | undefined;
  private stopping = false;
  private readonly redisLinks = new Map<RedisKeys, () => RedisState>();
  private startUp: () => ReadonlyMap<string, StepProgress> = () => new Map();

  /** `loading` gives the start-up steps not over yet; while there is one, the process is not ready. */
  addStartUp(loading: () => ReadonlyMap<string, StepProgress>): void {
    this.startUp = loading;
  }

  /** `status` is called on every /readyz and every scrape: it must be cheap and never throw. */
  addDataset(name: DatasetName, status: () => DatasetStatus): void {
    this.sources.set(name, status);
  }

  /** `status`, as cheap as a dataset's, says which report store was chosen and whether it is ready. */
  addReportStore(status: () => ReportStoreState): void {
    this.reportStore = status;
  }

  /** `status`, as cheap as a dataset's, says whether the Redis holding `keys` can be used now. */
  addRedis(keys: RedisKeys, status: () => RedisState): void {
    this.redisLinks.set(keys, status);
  }

  listening(listener: Listener): void {
    this.up[listener] = true;
  }

  /** Shutdown has begun: not ready any more, though both listeners still serve while the load balancer notices. */
  draining(): void {
    this.stopping = true;
  }

  get ready(): boolean {
    return this.up.api && this.up.front && !this.stopping && this.startUp().size === 0;
  }

  /** Ready, but a part runs degraded and says why: the report store, with a `problem`. */
  get degraded(): boolean {
    return this.ready && this.reportStore?.().problem !== undefined;
  }

  /** Whether the start-up step `name` is still waiting or running. */
  stepLoading(name: string): boolean {
    return this.startUp().has(name);
  }

  /** One dataset's status; undefined when no capability registered it. */
  dataset(name: DatasetName): DatasetStatus | undefined {
    return this.sources.get(name)?.();
  }

  /** Each registered dataset's status, in DATASETS order. */
  datasets(): Array<[DatasetName, DatasetStatus]> {
    const out: Array<[DatasetName, DatasetStatus]> = [];
    for (const name of DATASETS) {
      const status = this.sources.get(name);
      if (status) out.push([name, status()]);
    }
    return out;
  }

  report(now = Date.now()): ReadinessReport {
    const datasets: ReadinessReport['datasets'] = {};
    for (const [name, status] of this.datasets()) {
      datasets[name] = {
        state: status.state,
        updatedAt: status.updatedAt?.toISOString() ?? null,
        ageSeconds: ageSeconds(status, now),
        ...(status.database && { database: status.database }),
      };
    }
    const report: ReadinessReport = { ready: this.ready, listeners: { ...this.up }, datasets };
    const loading = this.startUp();
    if (loading.size > 0) report.loading = Object.fromEntries(loading);
    if (this.reportStore) report.reportStore = this.reportStore();
    if (this.redisLinks.size > 0) {
      report.redis = {};
      for (const [keys, status] of this.redisLinks) report.redis[keys] = status();
    }
    return report;
  }
}
