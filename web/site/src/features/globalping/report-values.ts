// A probe's values as the report accepts them (frontend contract 19.3): a
// value out of its range is left out rather than refusing the whole report.

export const MAX_MS = 600_000;
export const MAX_REPORT_PROBES = 32;

export function numberIn(value: number | null | undefined, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;
}

export function integerIn(value: number | null | undefined, max: number): number | undefined {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max ? (value as number) : undefined;
}

export function textUpTo(value: string, max: number): string | undefined {
  return value ? value.slice(0, max) : undefined;
}
