import { Type, type Static } from 'typebox';
import type { Config } from '../fastify.config.js';
import type { Readiness } from '../operations/readiness.js';

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
  speedTest: Type.Object({
    /** Whether the speed test offers Cloudflare's speed endpoints beside this server (SPEEDTEST_CLOUDFLARE). */
    cloudflare: Type.Boolean(),
  }),
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
});
export type SiteSettings = Static<typeof SiteSettings>;

export const SITE_SETTINGS_PATH = '/site-settings.json';

export function siteSettings(config: Config, readiness: Readiness): SiteSettings {
  return {
    addresses: { ipv4Origin: config.IPV4_ONLY_ORIGIN || null, ipv6Origin: config.IPV6_ONLY_ORIGIN || null },
    ruleTest: { origins: config.RULE_TEST_ORIGINS ? config.RULE_TEST_ORIGINS.split(',') : [] },
    speedTest: { cloudflare: config.SPEEDTEST_CLOUDFLARE },
    geoDatabase: loadedGeoDatabase(readiness),
    globalping: { apiBase: config.GLOBALPING_API_BASE },
    webrtc: { stunServers: config.WEBRTC_STUN_SERVERS.split(',').map((url) => url.trim()) },
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
  visit(settings);
  return [...origins];
}
