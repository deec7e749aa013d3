import { Type, type Static } from '@fastify/type-provider-typebox';
import { Nullable } from '../../schemas/nullable.js';
import { radarGet, RadarFailed, type RadarContext } from './radar-client.js';
import { finiteNumber } from '../../lib/json-values.js';

export const Activity = Type.Object({
  view: Type.Literal('activity'),
  country: Type.String(),
  dateRange: Type.String(),
  /** Sorted by UTC date; `hours[h]` is the UTC hour h, 0…1 of the week's peak, null where Radar sent nothing. */
  days: Type.Array(Type.Object({ date: Type.String(), hours: Type.Array(Nullable(Type.Number())) })),
});
type ActivityBody = Static<typeof Activity>;

// One week of hourly HTTP request volume for the country, normalised by
// Radar to 0..1 of the week's peak.
const ACTIVITY_QUERY = { dateRange: '7d', aggInterval: '1h', normalization: 'MIN0_MAX', format: 'json' };

/** view=activity: the country online-activity heatmap, one Radar call (its failure is the view's 500). */
export async function countryActivity(ctx: RadarContext, country: string): Promise<ActivityBody> {
  let result;
  try {
    result = await radarGet<{ serie_0?: { timestamps?: unknown; values?: unknown } }>(
      ctx.upstream,
      ctx.key,
      'http/timeseries',
      { ...ACTIVITY_QUERY, location: country },
    );
  } catch (err) {
    throw new RadarFailed('radar request failed', { err });
  }
  const timestamps = Array.isArray(result.serie_0?.timestamps) ? result.serie_0.timestamps : [];
  const values = Array.isArray(result.serie_0?.values) ? result.serie_0.values : [];
  const days = new Map<string, Array<number | null>>();
  timestamps.forEach((t, i) => {
    const at = typeof t === 'string' ? new Date(t) : undefined;
    if (!at || Number.isNaN(at.getTime())) return;
    const date = at.toISOString().slice(0, 10);
    let hours = days.get(date);
    if (!hours) days.set(date, (hours = new Array<number | null>(24).fill(null)));
    hours[at.getUTCHours()] = finiteNumber(values[i]);
  });
  return {
    view: 'activity',
    country,
    dateRange: ACTIVITY_QUERY.dateRange,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, hours]) => ({ date, hours })),
  };
}
