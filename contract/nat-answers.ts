/**
 * A NAT round's or run's answer, the one list the report's whitelist
 * (report.ts, `nattest`) and the NAT page (features/nat/mapping.ts) both read.
 * The first five are RFC 4787's mapping behaviours, or the two pairs a round
 * could not tell apart: one address answering on two ports cannot tell an
 * address-dependent NAT from an endpoint-independent one, and two addresses
 * without a second port on one of them cannot tell whether the port matters.
 * The rest say why there is no answer. The order is the page's: where rounds
 * disagree in equal numbers, the later, more cautious answer leads.
 *
 * Plain constants that import nothing, so the site may import them as values
 * without TypeBox coming into its bundle (test/site/contract-imports.test.ts).
 */
export const NAT_ANSWERS = [
  'endpoint-independent',
  'address-dependent',
  'address-and-port-dependent',
  'endpoint-or-address-dependent',
  'address-or-port-dependent',
  'no-nat',
  'no-answer',
  'one-answered',
  'few-servers',
  'unavailable',
] as const;

export type NatAnswer = (typeof NAT_ANSWERS)[number];
