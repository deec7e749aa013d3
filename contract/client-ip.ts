import { Type, type Static } from 'typebox';

/** GET /api/client-ip: the caller's address as this service resolves it. */
export const ClientIp = Type.Object({
  ip: Type.String(),
  family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
});
export type ClientIp = Static<typeof ClientIp>;

/**
 * GET /api/client-ip/large: the same with about 100 KB of random text beside
 * it, for the IPv6 readiness page: an answer that big spans many full-size
 * packets, so a broken path MTU shows as a stall where the small one passed.
 */
export const LargeClientIp = Type.Object({ ...ClientIp.properties, padding: Type.String() });
export type LargeClientIp = Static<typeof LargeClientIp>;
