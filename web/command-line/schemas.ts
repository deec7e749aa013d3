import { Type, type TSchema } from 'typebox';
import { ErrorBody } from '../../schemas/error-body.js';

/** `?ip=`: another address to answer for; the caller's own when absent. */
export const AddressQuery = Type.Object({
  ip: Type.Optional(
    Type.String({
      description:
        "A public IPv4 or IPv6 address to answer for instead of the caller's own; private, reserved and malformed addresses get 400 with the public-IP guard's words",
    }),
  ),
});

/** /json's answer; see web/command-line/README.md for where each field comes from. */
export const JsonAnswer = Type.Object({
  ip: Type.String(),
  ip_decimal: Type.Integer({ description: 'The address as one integer (128 bits for IPv6, written out exactly)' }),
  country: Type.Optional(Type.String()),
  country_iso: Type.Optional(Type.String()),
  country_eu: Type.Optional(Type.Boolean()),
  region_name: Type.Optional(Type.String()),
  region_code: Type.Optional(Type.String()),
  zip_code: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  latitude: Type.Optional(Type.Number()),
  longitude: Type.Optional(Type.Number()),
  time_zone: Type.Optional(Type.String()),
  asn: Type.Optional(Type.String({ description: 'AS15169' })),
  asn_org: Type.Optional(Type.String()),
  user_agent: Type.Optional(
    Type.Object({
      product: Type.String(),
      version: Type.Optional(Type.String()),
      comment: Type.Optional(Type.String()),
      raw_value: Type.String(),
    }),
  ),
});

const TooManyBody = Type.Object({ message: Type.Literal('Too Many Requests') });

const oneLine = Type.String({ description: 'One line of text, ending in a newline' });
const as = (description: string, content: Record<string, TSchema>) => ({
  description,
  content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
});

/** The answers every path of the face may give, besides its own 200. */
const failures = {
  400: as("`?ip=` is not a public address: the public-IP guard's words", {
    'text/plain': oneLine,
    'application/json': ErrorBody,
  }),
  404: as('The local database holds no such field for the address', {
    'text/plain': oneLine,
    'application/json': ErrorBody,
  }),
  429: as('Over the global rate limit (SECURITY_RATE_LIMIT)', {
    'text/plain': oneLine,
    'application/json': TooManyBody,
  }),
  503: as('The local database is not loaded', { 'text/plain': oneLine, 'application/json': ErrorBody }),
};

/** The answers of a path that prints one line. */
export const lineAnswers = (description: string) => ({ 200: as(description, { 'text/plain': oneLine }), ...failures });

/** The answers of `/`: the address as a line, or /json's answer when the client asks for JSON. */
export const rootAnswers = {
  200: as("The caller's address, or with Accept: application/json the answer of /json", {
    'text/plain': oneLine,
    'application/json': JsonAnswer,
  }),
  ...failures,
};

/** The answers of /json. */
export const jsonAnswers = {
  200: as('The address with its local record', { 'application/json': JsonAnswer }),
  ...failures,
};
