import { Type, type Static } from 'typebox';

/** GET /api/configs: which features this deployment has, as booleans only. */
export const Configs = Type.Object(
  {
    map: Type.Boolean(),
    ipInfo: Type.Boolean(),
    ipChecking: Type.Boolean(),
    ip2location: Type.Boolean(),
    originalSite: Type.Boolean(),
    cloudFlare: Type.Boolean(),
    ipapiis: Type.Boolean(),
    reportSharing: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type Configs = Static<typeof Configs>;
