import { Type, type TUnsafe } from 'typebox';

/**
 * A guard checks one query or path parameter and answers 400 with the spec's
 * exact strings. Each is a value: a route imports the guard and passes it to
 * `guarded()`, so there is no name to look up or to clash.
 */
export interface Guard {
  /** The error when the parameter is absent or empty. */
  missing: string;
  /** The error when the parameter is not a single string (given twice, it arrives as an array). */
  invalid: string;
  /** Returns the value the handler sees (normalised), or an error string when the value is wrong. */
  check: (value: string) => string | { error: string };
}

/** The schema keyword that carries a guarded parameter's guard (registered with Ajv, which ignores it). */
export const GUARD_KEYWORD = 'x-guard';

/**
 * The schema of a guarded parameter. Ajv lets any value through; the guard
 * hook (plugins/guards.ts) then applies the guard, so every guard answer comes
 * from one place and the handler's type is a checked string.
 */
export function guarded(guard: Guard): TUnsafe<string> {
  return Type.Unsafe<string>({ [GUARD_KEYWORD]: guard });
}

/** The guard a parameter's schema carries, if it is guarded. */
export function guardOf(schema: Record<string, unknown>): Guard | undefined {
  return schema[GUARD_KEYWORD] as Guard | undefined;
}

/**
 * Applies a guard to a raw parameter value: the normalised value, or the
 * guard's error string (missing, malformed, or its own check's answer).
 */
export function applyGuard(guard: Guard, raw: unknown): string | { error: string } {
  if (raw === undefined || raw === '') return { error: guard.missing };
  if (typeof raw !== 'string') return { error: guard.invalid };
  return guard.check(raw);
}
