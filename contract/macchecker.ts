import { Type, type Static } from 'typebox';

/** What the registry leaves out: a field it does not give, or a size it cannot. */
export const NOT_AVAILABLE = 'N/A';

const OrNa = (description: string) => Type.String({ description: `${description}, or "N/A"` });

/** GET /api/macchecker: the registry's entry for the address's block. */
export const MacVendor = Type.Object({
  success: Type.Literal(true),
  found: Type.Boolean(),
  mac: Type.String({ description: 'the address asked about, colon pairs' }),
  macPrefix: OrNa('the registered prefix in colon pairs, e.g. 00:00:0C'),
  company: OrNa('the registrant'),
  address: OrNa("the registrant's postal address"),
  country: OrNa('two-letter country code'),
  blockStart: OrNa('first address of the block, colon pairs'),
  blockEnd: OrNa('last address of the block, colon pairs'),
  blockSize: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal(NOT_AVAILABLE)]),
  blockType: OrNa('MA-L, MA-M, MA-S, …'),
  updated: OrNa('date of the registry entry'),
  isRand: Type.Boolean(),
  isPrivate: Type.Boolean(),
  isMulticast: Type.Boolean({ description: 'bit 0 of the first octet' }),
  isUnicast: Type.Boolean(),
  isLocal: Type.Boolean({ description: 'bit 1 of the first octet: locally administered' }),
  isGlobal: Type.Boolean(),
});
export type MacVendor = Static<typeof MacVendor>;

/** The provider could not answer (its rate limit, an unknown error): the site shows nothing. */
export const NoVendor = Type.Object({ success: Type.Literal(false), error: Type.String() });
export type NoVendor = Static<typeof NoVendor>;

export const MacAnswer = Type.Union([MacVendor, NoVendor]);
export type MacAnswer = Static<typeof MacAnswer>;
