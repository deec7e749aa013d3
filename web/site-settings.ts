import type { SiteSettings } from '../contract/site-settings.js';
import { REFERENCE_REPOSITORY, type Config } from '../fastify.config.js';
import type { Readiness } from '../operations/readiness.js';
import { PRODUCT_LICENCE } from '../lib/app-root.js';
import { hasMaxmindAccount } from '../datasets/geo/maxmind-source.js';
import { GEO_DATABASES_STEP } from '../datasets/geo/service-databases.js';
import { ingestUrl } from '../routes/monitoring/envelope.js';

export const SITE_SETTINGS_PATH = '/site-settings.json';

export function siteSettings(config: Config, readiness: Readiness): SiteSettings {
  return {
    addresses: { ipv4Origin: config.IPV4_ONLY_ORIGIN || null, ipv6Origin: config.IPV6_ONLY_ORIGIN || null },
    ipv6Readiness: {
      literalOrigin: config.IPV6_LITERAL_ORIGIN || null,
      fallbackOrigin: config.IPV6_FALLBACK_ORIGIN || null,
      dnsOrigin: config.IPV6_DNS_ORIGIN || null,
    },
    watch: { ttlDays: config.WATCH_TTL_DAYS, maxEntries: config.WATCH_MAX_ENTRIES },
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
    geoLocal: geoLocal(config, readiness),
    globalping: { apiBase: config.GLOBALPING_API_BASE },
    webrtc: { stunServers: config.WEBRTC_STUN_SERVERS.split(',').map((url) => url.trim()) },
    connectivity: { targets: connectivityTargets(config.CONNECTIVITY_TARGETS) },
    dnsLeak: { providers: dnsLeakProviders(config.DNS_LEAK_PROVIDERS) },
    repository: operatorRepository(config),
    source: {
      url:
        config.SOURCE_CODE_URL ||
        (operatorRepository(config) ? `https://github.com/${operatorRepository(config)}` : null),
      licence: PRODUCT_LICENCE,
    },
    privateTools: {
      leakZone: config.DNS_LEAK_ZONE,
      invisibilityScript: config.INVISIBILITY_TEST_KEY
        ? `${config.INVISIBILITY_SCRIPT_ORIGIN}/?pdKey=${config.INVISIBILITY_TEST_KEY}`
        : null,
    },
  };
}

/** CONNECTIVITY_TARGETS's `name=url` pairs (its pattern holds them to that shape). */
function connectivityTargets(setting: string): SiteSettings['connectivity']['targets'] {
  if (!setting) return [];
  return setting.split(',').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), url: pair.slice(at + 1) };
  });
}

/** DNS_LEAK_PROVIDERS's providers, each once (the first mention wins), with the URL given for it or null. */
function dnsLeakProviders(setting: string): SiteSettings['dnsLeak']['providers'] {
  const providers = new Map<string, string | null>();
  for (const entry of setting.split(',')) {
    const at = entry.indexOf('=');
    const id = at < 0 ? entry : entry.slice(0, at);
    if (!providers.has(id)) providers.set(id, at < 0 ? null : entry.slice(at + 1));
  }
  return [...providers].map(([id, url]) => ({ id, url }));
}

/** The city database's publisher as the file names it (an update or a hand replacement can change it while running). */
function loadedGeoDatabase(readiness: Readiness): SiteSettings['geoDatabase'] {
  const provider = readiness.dataset('geoCity')?.database?.provider;
  return provider === 'maxmind' || provider === 'dbip' ? provider : null;
}

/** The repository the operator named, if any: the reference's (the default) is not this site's code. */
function operatorRepository(config: Config): string {
  return config.REPO_STARS_REPOSITORY === REFERENCE_REPOSITORY ? '' : config.REPO_STARS_REPOSITORY;
}

/** The database the server is set to use, and what happens while none is loaded (from what the server knows). */
function geoLocal(config: Config, readiness: Readiness): SiteSettings['geoLocal'] {
  const provider = config.GEODB_PROVIDER;
  const retry = config.GEODB_AUTO_UPDATE ? 'daily' : 'nextStart';
  const state = readiness.dataset('geoCity')?.state;
  if (state === 'loaded' || state === 'stale') return { provider, missing: null, retry };
  let missing: SiteSettings['geoLocal']['missing'] = 'failed';
  if (provider === 'maxmind' && !hasMaxmindAccount(config.GEODB_ACCOUNT_ID, config.GEODB_LICENSE_KEY)) {
    missing = 'noAccount';
  } else if (readiness.stepLoading(GEO_DATABASES_STEP)) missing = 'loading';
  return { provider, missing, retry };
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
