import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Provider } from './providers.js';
import {
  COMPONENT_STATUSES,
  IMPACTS,
  INCIDENT_STATUSES,
  INDICATORS,
  MAX_COMPONENTS,
  MAX_INCIDENTS,
  type Component,
  type Incident,
  type Indicator,
} from '../../contract/service-status.js';

// What we read of Atlassian Statuspage's summary.json and incidents.json. Pages
// hosted by other vendors leave some fields out (no `shortlink`, no
// `started_at`), so only what a row cannot do without is required; a row
// without it is skipped rather than failing the whole page.
const Summary = Type.Object({
  status: Type.Object({ indicator: Type.String() }),
  components: Type.Optional(Type.Array(Type.Unknown())),
});
const ComponentIn = Type.Object({
  id: Type.Optional(Type.String()),
  name: Type.String(),
  status: Type.Optional(Type.Unknown()),
  group_id: Type.Optional(Type.Unknown()),
});
const Incidents = Type.Object({ incidents: Type.Array(Type.Unknown()) });
const IncidentIn = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String(),
  status: Type.Optional(Type.Unknown()),
  impact: Type.Optional(Type.Unknown()),
  started_at: Type.Optional(Type.Unknown()),
  created_at: Type.Optional(Type.Unknown()),
});
const isSummary = Compile(Summary);
const isComponent = Compile(ComponentIn);
const isIncidents = Compile(Incidents);
const isIncident = Compile(IncidentIn);

// Names are cut so one odd page cannot bloat every detail answer.
const MAX_TEXT = 200;
const clipped = (value: string) => value.slice(0, MAX_TEXT);

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  values.includes(value as T) ? (value as T) : undefined;

/** An ISO time in UTC, or null: pages write local offsets (`-08:00`) as often as `Z`. */
function isoTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

export interface SummaryView {
  indicator: Indicator;
  components: Component[];
}

/**
 * The page's indicator and its top-level components (rows without a
 * `group_id`: group headers with their rolled-up status and ungrouped rows),
 * minus the provider's hidden ones; undefined when the body is no summary.
 */
export function readSummary(body: unknown, provider: Provider): SummaryView | undefined {
  if (!isSummary.Check(body)) return undefined;
  const hidden = new Set(provider.hiddenComponents);
  const components: Component[] = [];
  for (const row of body.components ?? []) {
    if (components.length === MAX_COMPONENTS) break;
    if (!isComponent.Check(row) || row.group_id || (row.id !== undefined && hidden.has(row.id))) continue;
    // A status outside Statuspage's list reads as operational, the default the site assumes.
    components.push({ name: clipped(row.name), status: oneOf(COMPONENT_STATUSES, row.status) ?? 'operational' });
  }
  const indicator = oneOf(INDICATORS, body.status.indicator) ?? 'unknown';
  return { indicator, components };
}

/** The newest incidents of an incidents.json body (resolved ones included), or undefined when the body is none. */
export function readIncidents(body: unknown, provider: Provider): Incident[] | undefined {
  if (!isIncidents.Check(body)) return undefined;
  const incidents: Incident[] = [];
  for (const row of body.incidents) {
    if (!isIncident.Check(row)) continue;
    incidents.push({
      id: row.id,
      name: clipped(row.name),
      status: oneOf(INCIDENT_STATUSES, row.status) ?? null,
      impact: oneOf(IMPACTS, row.impact) ?? 'none',
      startedAt: isoTime(row.started_at) ?? isoTime(row.created_at),
      url: `${provider.page}/incidents/${encodeURIComponent(row.id)}`,
    });
  }
  // Pages list newest first already; sorting makes it so for any page. An incident without a date goes last.
  const time = (i: Incident) => (i.startedAt === null ? 0 : Date.parse(i.startedAt));
  return incidents.sort((a, b) => time(b) - time(a)).slice(0, MAX_INCIDENTS);
}
