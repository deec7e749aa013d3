import { Type, type TSchema } from 'typebox';

/** `T | null`: a field that is always present, `null` when the source has no value. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
