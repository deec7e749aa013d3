import { Type } from 'typebox';

/** Every error answer: one key, `error`, holding the spec's string or the failure's message. */
export const ErrorBody = Type.Object({ error: Type.String() });
