import { Type, type Static } from 'typebox';
import type { Config } from '../fastify.config.js';
import type { Readiness } from '../operations/readiness.js';
import { ingestUrl } from '../routes/monitoring/envelope.js';

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
  globalping: Type.Object({
    /** Globalping's API, called from the browser without a token (GLOBALPING_API_BASE). */
    apiBase: Type.String(),
  }),
  webrtc: Type.Object({
    /** The STUN servers the WebRTC leak test asks, `stun:host[:port]` each (WEBRTC_STUN_SERVERS). */
    stunServers: Type.Array(Type.String(), { minItems: 1, maxItems: 8 }),
  }),
  /** The project's code repository on GitHub, `owner/name` (REPO_STARS_REPOSITORY): the footer's star count links to it. */
  repository: Type.String(),
  privateTools: Type.Object({
    /** The companion's zone the in-depth DNS leak page looks names up under (DNS_LEAK_ZONE). */
    leakZone: Type.String(),
    /** The proxy-detection script with its public key, without the job id; null while no key is set. */
    invisibilityScript: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type SiteSettings = Static<typeof SiteSettings>;

export const SITE_SETTINGS_PATH = '/site-settings.json';

export function siteSettings(config: Config, readiness: Readiness): SiteSettings {
  return {
    addresses: { ipv4Origin: config.IPV4_ONLY_ORIGIN || null, ipv6Origin: config.IPV6_ONLY_ORIGIN || null },
    ruleTest: { origins: config.RULE_TEST_ORIGINS ? config.RULE_TEST_ORIGINS.split(',') : [] },
    signIn: config.OIDC_ISSUER
      ? { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, scopes: config.OIDC_SCOPES }
      : null,
    speedTest: {
      cloudflare: config.SPEEDTEST_CLOUDFLARE,
      maxDownloadBytes: config.SPEEDTEST_DOWNLOAD_MAX_BYTES,
      maxUploadBytes: config.SPEEDTEST_UPLOAD_MAX_BYTES,
    },
    // A DSN the tunnel cannot relay to leaves it unmounted (routes/monitoring), so the page is told nothing either.
    telemetry:
      config.TELEMETRY_DSN_FRONTEND && ingestUrl(config.TELEMETRY_DSN_FRONTEND)
        ? { dsn: config.TELEMETRY_DSN_FRONTEND }
        : null,
    geoDatabase: loadedGeoDatabase(readiness),
    globalping: { apiBase: config.GLOBALPING_API_BASE },
    webrtc: { stunServers: config.WEBRTC_STUN_SERVERS.split(',').map((url) => url.trim()) },
    repository: config.REPO_STARS_REPOSITORY,
    privateTools: {
      leakZone: config.DNS_LEAK_ZONE,
      invisibilityScript: config.INVISIBILITY_TEST_KEY
        ? `${config.INVISIBILITY_SCRIPT_ORIGIN}/?pdKey=${config.INVISIBILITY_TEST_KEY}`
        : null,
    },
  };
}

/** The city database's publisher as the file names it (an update or a hand replacement can change it while running). */
function loadedGeoDatabase(readiness: Readiness): SiteSettings['geoDatabase'] {
  const provider = readiness.dataset('geoCity')?.database?.provider;
  return provider === 'maxmind' || provider === 'dbip' ? provider : null;
}

/**
 * The plain-HTTP origins among the settings: the site's CSP allows any HTTPS
 * origin in connect-src, and these too, so a page can reach what the operator named.
 */
export function plainHttpOrigins(settings: SiteSettings): string[] {
  const origins = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string' && value.startsWith('http://')) origins.add(new URL(value).origin);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  // The browser never contacts the DSN's host: its reports go through /api/monitoring.
  visit({ ...settings, telemetry: null });
  return [...origins];
}

/** The origins of the third-party scripts the settings name, which the site's CSP lets run. */
export function scriptOrigins(settings: SiteSettings): string[] {
  const script = settings.privateTools.invisibilityScript;
  return script ? [new URL(script).origin] : [];
}
