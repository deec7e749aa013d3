import { Type, type Static } from 'typebox';
import type { Config } from '../fastify.config.js';

/**
 * The settings the site's pages read at run time, so one build serves every
 * operator's choices: public values only, never a key. `/api/configs` stays
 * the spec's booleans; this is the site's own document, served by the front
 * listener at SITE_SETTINGS_PATH and fetched only by the pages that need it.
 */
export const SiteSettings = Type.Object({
  speedTest: Type.Object({
    /** Whether the speed test offers Cloudflare's speed endpoints beside this server (SPEEDTEST_CLOUDFLARE). */
    cloudflare: Type.Boolean(),
    /** The largest download and upload this server's own speed endpoints accept, so the page offers no size they refuse. */
    maxDownloadBytes: Type.Integer({ minimum: 1 }),
    maxUploadBytes: Type.Integer({ minimum: 1 }),
  }),
});
export type SiteSettings = Static<typeof SiteSettings>;

export const SITE_SETTINGS_PATH = '/site-settings.json';

export function siteSettings(config: Config): SiteSettings {
  return {
    speedTest: {
      cloudflare: config.SPEEDTEST_CLOUDFLARE,
      maxDownloadBytes: config.SPEEDTEST_DOWNLOAD_MAX_BYTES,
      maxUploadBytes: config.SPEEDTEST_UPLOAD_MAX_BYTES,
    },
  };
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
