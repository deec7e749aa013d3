import type { Config } from '../fastify.config.js';

const REDACTED = '[redacted]';
// Shorter values could be ordinary words in an answer; no real key is this short.
const MIN_SECRET_LENGTH = 6;

/** Settings whose values are credentials; the key settings may be comma lists. */
export const SECRET_SETTINGS = [
  'GEO_KEYED_A_API_KEY',
  'GEO_KEYED_B_API_KEY',
  'GEO_KEYED_C_API_KEY',
  'MAP_API_KEY',
  'MAC_LOOKUP_API_KEY',
  'PRIVATE_API_KEY',
  'RADAR_API_KEY',
  'KV_ACCOUNT_ID',
  'KV_NAMESPACE_ID',
  'GEODB_LICENSE_KEY',
  'WEB_PUSH_VAPID_PRIVATE_KEY',
] as const;

function userinfo(url: string): string[] {
  try {
    const { username, password } = new URL(url);
    return [decodeURIComponent(username), decodeURIComponent(password)];
  } catch {
    return [];
  }
}

/**
 * Every credential value the settings hold, in each spelling an upstream
 * could echo back: as set, URL-encoded (as sent in a query string), and the
 * HTTP Basic token of the database download.
 */
export function secretValues(
  config: Pick<
    Config,
    (typeof SECRET_SETTINGS)[number] | 'GEODB_ACCOUNT_ID' | 'TELEMETRY_DSN_FRONTEND' | 'REDIS_URL' | 'REPORT_REDIS_URL'
  >,
): string[] {
  const values = SECRET_SETTINGS.flatMap((name) => config[name].split(',').map((v) => v.trim()));
  values.push(...userinfo(config.TELEMETRY_DSN_FRONTEND), ...userinfo(config.REDIS_URL));
  values.push(...userinfo(config.REPORT_REDIS_URL));
  if (config.GEODB_ACCOUNT_ID && config.GEODB_LICENSE_KEY) {
    values.push(Buffer.from(`${config.GEODB_ACCOUNT_ID}:${config.GEODB_LICENSE_KEY}`).toString('base64'));
  }
  const spellings = values.filter((v) => v.length >= MIN_SECRET_LENGTH).flatMap((v) => [v, encodeURIComponent(v)]);
  return [...new Set(spellings)];
}

/**
 * Replaces every configured secret in a text. An upstream (or a proxy in
 * front of it) may echo our request URL or headers in an error, and that text
 * travels on into answers and log lines; this is the last stop before either.
 */
export class SecretScrubber {
  private readonly pattern: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    // Longest first, so a secret that contains another is replaced whole.
    const sorted = [...secrets].sort((a, b) => b.length - a.length);
    this.pattern = sorted.length
      ? new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : undefined;
  }

  get empty(): boolean {
    return this.pattern === undefined;
  }

  scrub(text: string): string {
    if (!this.pattern) return text;
    this.pattern.lastIndex = 0;
    return this.pattern.test(text) ? text.replace(this.pattern, REDACTED) : text;
  }
}
