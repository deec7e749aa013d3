import { Type, type TProperties } from 'typebox';
import { isIp } from '../lib/network/ip-address.js';

// The leaf kinds of the shared-report whitelist, as small schema builders.
// Each carries a `description` that is also the problem named in a 400's
// details ("expected <description>"). Checks JSON Schema cannot say (UTF-16
// length, Date.parse, an address) are TypeBox refinements, which the compiled
// checker runs and the JSON form of the schema leaves out.

/** Every object of a report is closed: an unknown key is an error. */
export const closed = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

export const opt = Type.Optional;

/** A string of at most `max` UTF-16 units, as the page's own check counts (JSON Schema counts code points). */
export const stringUpTo = (max: number) => {
  const description = `string (max ${max})`;
  return Type.Refine(
    Type.String({ maxLength: max, description }),
    (value) => value.length <= max,
    () => `expected ${description}`,
  );
};

export const numberIn = (min: number, max: number) =>
  Type.Number({ minimum: min, maximum: max, description: `number in [${min}, ${max}]` });

export const integerIn = (min: number, max: number) =>
  Type.Integer({ minimum: min, maximum: max, description: `integer in [${min}, ${max}]` });

export const bool = () => Type.Boolean({ description: 'boolean' });

export const oneOf = <const T extends string[]>(...values: T) =>
  Type.Enum<T>(values, { description: `one of ${values.join('|')}` });

/** At most 32 characters that Date.parse reads as a time. */
export const isoDate = () => {
  const description = 'ISO date string';
  return Type.Refine(
    Type.String({ maxLength: 32, description }),
    (value) => Number.isFinite(Date.parse(value)),
    () => `expected ${description}`,
  );
};

/** Two ASCII letters in any case, or "" for a source that could not tell. */
export const cc = () =>
  Type.String({ pattern: '^(?:[A-Za-z]{2})?$', description: '2-letter country code or empty string' });

/** An IANA zone name such as `America/Argentina/Buenos_Aires`; never empty. */
export const tz = () =>
  Type.String({
    maxLength: 64,
    pattern: '^[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+)*$',
    description: 'IANA time zone name',
  });

// The page may mask the host part of an address before sharing: `a.b.c.x`, or
// the first four IPv6 groups followed by `:x`.
const MASKED_V4 = /^(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}x$/;
const MASKED_V6 = /^(?:[0-9A-Fa-f]{1,4}:){4}x$/;
const isAddress = (value: string) => isIp(value) || MASKED_V4.test(value) || MASKED_V6.test(value);

export const ip = () => {
  const description = 'IP address (full or tail-masked)';
  return Type.Refine(Type.String({ maxLength: 45, description }), isAddress, () => `expected ${description}`);
};

const DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

export const ipOrDomain = () => {
  const description = 'IP address or domain name';
  return Type.Refine(
    Type.String({ maxLength: 253, description }),
    (value) => isAddress(value) || DOMAIN.test(value),
    () => `expected ${description}`,
  );
};
