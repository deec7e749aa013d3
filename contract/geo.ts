import { Type, type Static } from 'typebox';
import { Nullable } from '../schemas/nullable.js';

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/**
 * The one geolocation record every geo route answers (the frontend contract's
 * shape); every field is present, a missing value is null.
 */
export const GeoRecordFields = {
  ip: Type.String(),
  city: Nullable(Type.String()),
  region: Nullable(Type.String()),
  /** The ISO 3166-1 alpha-2 code: the frontend takes the flag, the name and the report's code from it. */
  country: Nullable(CountryCode),
  /** The source's own name (localised where the source localises); the frontend's fallback when `country` is null. */
  country_name: Nullable(Type.String()),
  country_code: Nullable(CountryCode),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  timezone: Nullable(Type.String()),
  asn: Nullable(Type.String({ pattern: '^AS\\d+$' })),
  org: Nullable(Type.String()),
};
export const GeoRecord = Type.Object(GeoRecordFields);
export type GeoRecord = Static<typeof GeoRecord>;

/** A private-API field the caller may not see: signed out, or over quota. */
export const GatedState = Type.Union([Type.Literal('sign_in_required'), Type.Literal('quota_exceeded')]);
export type GatedState = Static<typeof GatedState>;

/** A signed-in caller within quota: the values (the frontend contract, section 1.2). */
const AdvancedValues = Type.Object({
  score: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Literal('unknown')]),
  tags: Type.Object({ isNative: Type.Boolean(), isProxyOrVPN: Type.Boolean() }),
  proxyProtocol: Type.String(),
  proxyProvider: Type.String(),
  operatorType: Type.String(),
});
/** Signed out or over quota: every one of the five keys is the state's code, `tags` included. */
const AdvancedGated = Type.Object({
  score: GatedState,
  tags: GatedState,
  proxyProtocol: GatedState,
  proxyProvider: GatedState,
  operatorType: GatedState,
});
export const AdvancedData = Type.Union([AdvancedValues, AdvancedGated]);
export type AdvancedData = Static<typeof AdvancedData>;

/** GET /api/geo-keyed-b: the record and the provider's hosting and proxy flags. */
export const KeyedBRecord = Type.Object({ ...GeoRecordFields, isHosting: Type.Boolean(), isProxy: Type.Boolean() });
export type KeyedBRecord = Static<typeof KeyedBRecord>;

/** GET /api/geo-private: the record and the companion API's proxy verdict. */
export const PrivateRecord = Type.Object({ ...GeoRecordFields, advancedData: AdvancedData });
export type PrivateRecord = Static<typeof PrivateRecord>;
