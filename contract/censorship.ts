import { Type, type Static } from 'typebox';

/** Most to least severe: the order of the site's list. */
export const CENSORSHIP_TIERS = ['confirmed', 'likely', 'signs', 'ok'] as const;
export type Tier = (typeof CENSORSHIP_TIERS)[number];

/** One country's last 30 days of OONI measurements of the domain, and the site's tier for them. */
export const CensorshipCountry = Type.Object({
  country: Type.String({ pattern: '^[A-Z]{2}$', description: 'OONI probe_cc' }),
  tier: Type.Union([Type.Literal('confirmed'), Type.Literal('likely'), Type.Literal('signs'), Type.Literal('ok')]),
  measurements: Type.Integer({ minimum: 0 }),
  anomaly: Type.Integer({ minimum: 0 }),
  confirmed: Type.Integer({ minimum: 0 }),
  methods: Type.Object(
    {
      dns: Type.Optional(Type.Integer({ minimum: 1 })),
      tcp_ip: Type.Optional(Type.Integer({ minimum: 1 })),
      'http-failure': Type.Optional(Type.Integer({ minimum: 1 })),
      'http-diff': Type.Optional(Type.Integer({ minimum: 1 })),
    },
    {
      additionalProperties: false,
      description: 'anomaly plus confirmed counts per blocking type; a type only when above 0',
    },
  ),
  ok: Type.Integer({ minimum: 0 }),
  failure: Type.Integer({ minimum: 0 }),
});

/** GET /api/censorship: the domain's measurements per country. */
export const CensorshipAnswer = Type.Object({
  domain: Type.String({ description: 'the apex, a leading www. removed' }),
  since: Type.String({ format: 'date', description: 'today (UTC) minus 30 days' }),
  until: Type.String({ format: 'date', description: 'today (UTC)' }),
  variants: Type.Array(Type.Object({ domain: Type.String(), ok: Type.Boolean() })),
  partial: Type.Boolean(),
  countries: Type.Array(CensorshipCountry),
});
export type CensorshipCountry = Static<typeof CensorshipCountry>;
export type CensorshipAnswer = Static<typeof CensorshipAnswer>;
