import { ageSeconds, type DatasetStatus } from './dataset-status.js';

export type Listener = 'api' | 'front';

/** The names /readyz and the metrics use for the datasets, in the order they are shown. */
export const DATASETS = [
  'geoCity',
  'geoAsn',
  'asRelationships',
  'asOrganisations',
  'rdapBootstrap',
  'tldList',
  'serviceStatus',
] as const;
export type DatasetName = (typeof DATASETS)[number];

export interface DatasetReport {
  state: DatasetStatus['state'];
  updatedAt: string | null;
  ageSeconds: number | null;
}

export interface ReadinessReport {
  ready: boolean;
  listeners: Record<Listener, boolean>;
  datasets: Partial<Record<DatasetName, DatasetReport>>;
}

/**
 * Whether the process is ready to serve (both listeners up) and what each
 * dataset it holds looks like. Capabilities register a read-only status per
 * dataset; server.ts marks each listener once it listens.
 */
export class Readiness {
  private readonly sources = new Map<DatasetName, () => DatasetStatus>();
  private readonly up: Record<Listener, boolean> = { api: false, front: false };

  /** `status` is called on every /readyz and every scrape: it must be cheap and never throw. */
  addDataset(name: DatasetName, status: () => DatasetStatus): void {
    this.sources.set(name, status);
  }

  listening(listener: Listener): void {
    this.up[listener] = true;
  }

  get ready(): boolean {
    return this.up.api && this.up.front;
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
      };
    }
    return { ready: this.ready, listeners: { ...this.up }, datasets };
  }
}
