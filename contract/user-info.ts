import { Type, type Static } from 'typebox';

const Usage = Type.Object({ used: Type.Number(), limit: Type.Number() });

/**
 * What the site reads of the companion API's profile (GET /api/getuserinfo).
 * The profile passes through as the companion API wrote it, so its other
 * fields stay.
 */
export const UserInfo = Type.Object(
  {
    /** A level name the site translates (`Standard`, `Premium`, `Owner`, `Developer`, `HonoraryMember`). */
    userLevel: Type.String(),
    /** Achievement name → whether and when (epoch ms) it was unlocked; absent for a new user. */
    achievements: Type.Optional(
      Type.Record(Type.String(), Type.Object({ achieved: Type.Boolean(), achievedTime: Type.Number() })),
    ),
    functionUses: Type.Object({ total: Type.Number() }),
    quota: Type.Object({
      /** Above 1 for a sponsor. */
      multiplier: Type.Number(),
      features: Type.Object({ ipinfo: Usage, invisibility_test: Usage, dns_leak_test: Usage, persona_check: Usage }),
    }),
  },
  { additionalProperties: true },
);
export type UserInfo = Static<typeof UserInfo>;

/** PUT /api/updateuserachievement: the one field the site sends. */
export const AchievementUnlock = Type.Object(
  { achievement: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** The companion API's answer to an unlock; the site reads no field of it, only the status. */
export const UnlockAnswer = Type.Object({}, { additionalProperties: true });

/**
 * Any other status: the companion API's own body as it came (`{error, code}` on
 * a 429, say), or this service's `{error}` (500 `API key is missing`).
 */
export const Passed = Type.Object({}, { additionalProperties: true });
