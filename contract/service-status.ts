import { Type, type Static } from 'typebox';
import { Nullable } from '../schemas/nullable.js';

/** The most rows a detail carries, whatever a status page publishes. */
export const MAX_COMPONENTS = 40;
export const MAX_INCIDENTS = 10;

/** Statuspage's page-wide indicator, or `unknown` (never fetched, failed, or a value outside the list). */
export const INDICATORS = ['none', 'minor', 'major', 'critical', 'maintenance', 'unknown'] as const;
export const COMPONENT_STATUSES = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
] as const;
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'] as const;
export const IMPACTS = ['none', 'minor', 'major', 'critical'] as const;

export const Indicator = Type.Enum(INDICATORS);
export type Indicator = Static<typeof Indicator>;

/** GET /api/service-status: one light per provider, no detail arrays. */
export const Overview = Type.Object(
  {
    /** End of the last refresh round; null before the first. */
    updatedAt: Nullable(Type.String()),
    providers: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          /** The status page, also the link for an incident. */
          page: Type.String(),
          indicator: Indicator,
          /** Ours: when the light shown was read from the status page; null while it has never been reached. */
          checkedAt: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Overview = Static<typeof Overview>;

export const Component = Type.Object(
  { name: Type.String(), status: Type.Enum(COMPONENT_STATUSES) },
  { additionalProperties: false },
);
export type Component = Static<typeof Component>;

export const Incident = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Nullable(Type.Enum(INCIDENT_STATUSES)),
    impact: Type.Enum(IMPACTS),
    /** ISO time in UTC: Statuspage's `started_at`, else `created_at`; null when neither is a date. */
    startedAt: Nullable(Type.String()),
    /** `{page}/incidents/{id}`. */
    url: Type.String(),
  },
  { additionalProperties: false },
);
export type Incident = Static<typeof Incident>;

/** GET /api/service-status/detail: one provider's top-level components and its latest incidents, newest first. */
export const Detail = Type.Object(
  {
    id: Type.String(),
    components: Type.Array(Component, { maxItems: MAX_COMPONENTS }),
    incidents: Type.Array(Incident, { maxItems: MAX_INCIDENTS }),
  },
  { additionalProperties: false },
);
export type Detail = Static<typeof Detail>;
