import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';

/** One provider's answer over one transport: the records, or N/A when it failed. */
export const DnsRow = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  country: Type.String({ pattern: '^[A-Z]{2}$' }),
  type: Type.Union([Type.Literal('udp'), Type.Literal('doh')]),
  result: Type.Union([Type.Array(Type.String()), Type.String()]),
  /**
   * Ours, beside the contract's row: what the resolver said, where `result` reads "N/A" for all but the first.
   * `nxdomain`: the name does not exist; `nodata`: it exists without records of the type; `failed`: no usable answer.
   */
  status: StringEnum(['records', 'nxdomain', 'nodata', 'failed'] as const),
});
export type DnsRow = Static<typeof DnsRow>;

/** GET /api/dnsresolver: the same question to every provider, one row each. */
export const DnsResolverAnswer = Type.Object({ hostname: Type.String(), results: Type.Array(DnsRow) });
export type DnsResolverAnswer = Static<typeof DnsResolverAnswer>;
