import { Type } from 'typebox';

/** Every error answer: one key, `error`, holding the spec's string or the failure's message. */
export const ErrorBody = Type.Object({ error: Type.String() });

/** The error answers of a route whose failures all carry an ErrorBody. */
export const ErrorAnswers = { '4xx': ErrorBody, '5xx': ErrorBody };

/** A limiter's refusal, the spec's one answer keyed `message`. */
export const TooManyRequestsBody = Type.Object({ message: Type.Literal('Too Many Requests') });
