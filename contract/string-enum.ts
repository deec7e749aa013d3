import { Type, type TUnsafe } from 'typebox';

/**
 * A string that is one of `values`, written as `{type: "string", enum}`:
 * the serialiser writes it with a plain string test, where a union of
 * literals would run a validator per member on every value.
 */
export const StringEnum = <T extends string>(values: readonly T[]): TUnsafe<T> =>
  Type.Unsafe<T>(Type.String({ enum: [...values] }));
