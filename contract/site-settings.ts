import { Type, type Static } from 'typebox';

/**
 * The settings the site's pages read at run time, so one build serves every
 * operator's choices: public values only, never a key. `/api/configs` stays
 * the spec's booleans; this is the site's own document, served by the front
 * listener at SITE_SETTINGS_PATH and fetched only by the pages that need it.
 */
const Origin = Type.Union([Type.String(), Type.Null()]);

export const SiteSettings = Type.Object({
  /** Origins of this same service reachable over one address family only (IPV4_ONLY_ORIGIN, IPV6_ONLY_ORIGIN). */
  addresses: Type.Object({ ipv4Origin: Origin, ipv6Origin: Origin }),
  /** The IPv6 readiness page's other origins of this service (IPV6_LITERAL_ORIGIN, IPV6_FALLBACK_ORIGIN, IPV6_DNS_ORIGIN). */
  ipv6Readiness: Type.Object({ literalOrigin: Origin, fallbackOrigin: Origin, dnsOrigin: Origin }),
  /** How long an address watch and its entries are kept, and how many entries (WATCH_TTL_DAYS, WATCH_MAX_ENTRIES). */
  watch: Type.Object({ ttlDays: Type.Integer({ minimum: 1 }), maxEntries: Type.Integer({ minimum: 1 }) }),
  /** Hostnames of this same service the proxy rule test asks (RULE_TEST_ORIGINS); empty: the built-in echo services. */
  ruleTest: Type.Object({ origins: Type.Array(Type.String()) }),
  /** The OpenID Connect provider visitors sign in with (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_SCOPES); null: no sign-in. */
  signIn: Type.Union([
    Type.Object({ issuer: Type.String(), clientId: Type.String(), scopes: Type.String() }),
    Type.Null(),
  ]),
  speedTest: Type.Object({
    /** Whether the speed test offers Cloudflare's speed endpoints beside this server (SPEEDTEST_CLOUDFLARE). */
    cloudflare: Type.Boolean(),
    /** The largest download and upload this server's own speed endpoints accept, so the page offers no size they refuse. */
    maxDownloadBytes: Type.Integer({ minimum: 1 }),
    maxUploadBytes: Type.Integer({ minimum: 1 }),
  }),
  /**
   * The public DSN the site's error reports name (TELEMETRY_DSN_FRONTEND); they go through /api/monitoring,
   * which relays only this DSN. Null: the tunnel is off, and the page loads nothing of the SDK.
   */
  telemetry: Type.Union([Type.Object({ dsn: Type.String() }), Type.Null()]),
  /**
   * Whose local geolocation database is loaded, so the site shows the credit
   * its licence asks for: null while none is (or it is neither's).
   */
  geoDatabase: Type.Union([Type.Literal('maxmind'), Type.Literal('dbip'), Type.Null()]),
  /**
   * The local database the server is set to use and, while none is loaded, what will happen, so the geo-local card
   * names the right one and says when it comes instead of a guess.
   */
  geoLocal: Type.Object({
    /** Whose databases the server downloads (GEODB_PROVIDER). */
    provider: Type.Union([Type.Literal('maxmind'), Type.Literal('dbip')]),
    /**
     * Null while a city database is loaded. Else `noAccount`: MaxMind without GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY,
     * so nothing will be downloaded; `loading`: the start-up step that downloads (within 5 minutes) and loads it
     * has not finished; `failed`: that step ended without one.
     */
    missing: Type.Union([Type.Literal('noAccount'), Type.Literal('loading'), Type.Literal('failed'), Type.Null()]),
    /** When a failed download is tried again: at the daily update check (GEODB_AUTO_UPDATE), or at the next start. */
    retry: Type.Union([Type.Literal('daily'), Type.Literal('nextStart')]),
  }),
  globalping: Type.Object({
    /** Globalping's API, called from the browser without a token (GLOBALPING_API_BASE). */
    apiBase: Type.String(),
  }),
  webrtc: Type.Object({
    /** The STUN servers the WebRTC leak test asks, `stun:host[:port]` each (WEBRTC_STUN_SERVERS). */
    stunServers: Type.Array(Type.String(), { minItems: 1, maxItems: 8 }),
  }),
  connectivity: Type.Object({
    /** The connectivity test's first list and its "defaults" group (CONNECTIVITY_TARGETS); empty: the built-in sites. */
    targets: Type.Array(Type.Object({ name: Type.String(), url: Type.String() }), { maxItems: 60 }),
  }),
  dnsLeak: Type.Object({
    /**
     * The DNS leak test's providers, in the order asked (DNS_LEAK_PROVIDERS): each by its id, with the URL
     * it is asked at (`*` where the fresh name's label goes), or null for the provider's own.
     */
    providers: Type.Array(Type.Object({ id: Type.String(), url: Type.Union([Type.String(), Type.Null()]) }), {
      minItems: 1,
      maxItems: 4,
    }),
  }),
  /** A repository on GitHub, `owner/name`, whose star count the footer shows (REPO_STARS_REPOSITORY); empty: no count. */
  repository: Type.String(),
  /** This deployment's code: where to read it (SOURCE_CODE_URL, else the repository's GitHub page; null: nowhere said) and its licence (SPDX). */
  source: Type.Object({ url: Type.Union([Type.String(), Type.Null()]), licence: Type.String() }),
  privateTools: Type.Object({
    /** The companion's zone the in-depth DNS leak page looks names up under (DNS_LEAK_ZONE). */
    leakZone: Type.String(),
    /** The proxy-detection script with its public key, without the job id; null while no key is set. */
    invisibilityScript: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type SiteSettings = Static<typeof SiteSettings>;
