import { Type, type Static } from 'typebox';

/** GET /api/client-ip: the caller's address as this service resolves it. */
export const ClientIp = Type.Object({
  ip: Type.String(),
  family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
});
export type ClientIp = Static<typeof ClientIp>;
