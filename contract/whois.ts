import { Type, type Static } from 'typebox';

/** The site takes a top-level key as a server only when it matches this (it ignores case; ours are lower-case) and its value has a `__raw`. */
export const HOST_KEY = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;

/** What one server said: its text in `__raw` (never empty), next to its parsed fields or RDAP members. */
const ServerRecord = Type.Object({ __raw: Type.String({ minLength: 1 }) }, { additionalProperties: true });

/** Domain query: one member per server that answered, keyed by its host name (registry, then registrar; or the RDAP server). */
export const DomainAnswer = Type.Record(Type.String({ pattern: HOST_KEY.source }), ServerRecord, {
  additionalProperties: false,
  minProperties: 1,
});
export type DomainAnswer = Static<typeof DomainAnswer>;

/** IP query: the RDAP network object (or the WHOIS fields) with the text at the top level. */
export const IpAnswer = ServerRecord;
export type IpAnswer = Static<typeof IpAnswer>;

// IpAnswer first: a domain answer has no top-level __raw, and an IP answer's
// members are not host names, so each value fits exactly one branch.
export const WhoisResponse = Type.Union([IpAnswer, DomainAnswer]);
export type WhoisResponse = Static<typeof WhoisResponse>;
