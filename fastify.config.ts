import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

// Every setting the service reads, once, from the environment. Names are the
// spec's (and, for the ones the spec leaves to us, documented in the README).
const Port = (def: number) => Type.Integer({ minimum: 0, maximum: 65535, default: def });
const Count = Type.Integer({ minimum: 0, default: 0 });
const Flag = Type.Boolean({ default: false });
const Text = Type.String({ default: '' });
const HostPort = Type.String({ default: '', pattern: '^$|^[^:\\s]+:\\d{1,5}$' });
const withoutTrailingSlash = Type.Decode(Type.String({ default: '' }), (v) => v.replace(/\/+$/, ''));
// `stun:host[:port]`, a bracketed IPv6 literal as host; at most 8, the report's bound on the WebRTC section.
const STUN_URL = 'stun:(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:\\d{1,5})?';
const StunServers = Type.String({
  default:
    'stun:stun.l.google.com:19302,stun:stun.voip.blackberry.com:3478,stun:global.stun.twilio.com:3478,stun:stun.cloudflare.com:3478',
  pattern: `^\\s*${STUN_URL}(\\s*,\\s*${STUN_URL}){0,7}\\s*$`,
});

// The connectivity test's first list: `name=url` pairs, at most the 60 a list holds; a name is at most 32 characters.
const CONNECTIVITY_TARGET = '[^=,\\s][^=,]{0,31}=https?://[^/,\\s]+(/[^,\\s]*)?';
// The DNS leak test's providers by name, each optionally placed elsewhere: its URL with `*` as the fresh name's label.
const DNS_LEAK_PROVIDER = '(ipapi|surfshark|ipleak|fastly)(=https?://\\*\\.[^/,\\s*]+(/[^,\\s*]*)?)?';

/**
 * The repository `/api/repo-stars` counts unless told otherwise: the contract's route counts the reference project's
 * stars. It is not this deployment's code, so the site shows its count and link only for a repository the operator set.
 */
export const REFERENCE_REPOSITORY = 'jason5ng32/MyIP';

export const ConfigSchema = Type.Object({
  BACKEND_PORT: Port(11966),
  FRONTEND_PORT: Port(18966),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  SITE_URL: withoutTrailingSlash,
  FRONTEND_DIR: Type.String({ default: '' }),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 5000 }),

  LOG_LEVEL: Type.Enum(['debug', 'info', 'warn', 'error'], { default: 'info' }),
  LOG_FORMAT: Text,
  LOG_HTTP: Flag,
  METRICS: Flag,

  SECURITY_RATE_LIMIT: Count,
  SECURITY_DELAY_AFTER: Count,
  SECURITY_BLACKLIST_LOG_FILE_PATH: Text,
  ALLOWED_DOMAINS: Text,
  REDIS_URL: Type.String({ default: '', pattern: '^$|^rediss?://' }),
  LOAD_SHEDDING: Type.Boolean({ default: true }),

  UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 8000 }),
  UPSTREAM_FAILURE_MEMORY_MS: Type.Integer({ minimum: 0, default: 30000 }),
  UPSTREAM_OVERRIDE_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://[^/]+$' }),
  DNS_OVERRIDE_SERVER: HostPort,
  WHOIS_OVERRIDE_SERVER: HostPort,
  DNSRESOLVER_CLIENT_LOOKUPS: Type.Integer({ minimum: 1, default: 4 }),

  GEO_KEYED_A_API_KEY: Text,
  GEO_KEYED_B_API_KEY: Text,
  GEO_KEYED_C_API_KEY: Text,
  MAP_API_KEY: Text,
  MAC_LOOKUP_API_KEY: Text,
  PRIVATE_API_KEY: Text,
  PRIVATE_API_ENDPOINT: withoutTrailingSlash,
  RADAR_API_KEY: Text,
  KV_ACCOUNT_ID: Text,
  KV_NAMESPACE_ID: Text,
  REPORT_STORE: Type.Enum(['kv', 'redis', 'local'], { default: 'kv' }),
  REPORT_RATE_LIMIT: Type.Integer({ minimum: 0, default: 20 }),
  REPORT_STORE_RETRY_MAX_MS: Type.Integer({ minimum: 100, default: 60000 }),
  REPORT_REDIS_URL: Type.String({ default: '', pattern: '^$|^rediss?://' }),
  WATCH_TTL_DAYS: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  WATCH_MAX_ENTRIES: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  WATCH_MAX_PER_SIGN_IN: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  WATCH_MAX_PER_CLIENT: Type.Integer({ minimum: 0, default: 5 }),
  WATCH_WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30000, default: 3000 }),
  WATCH_WEBHOOK_ALLOW_PRIVATE: Flag,
  WEB_PUSH_VAPID_PUBLIC_KEY: Text,
  WEB_PUSH_VAPID_PRIVATE_KEY: Text,
  WEB_PUSH_SUBJECT: Text,
  TELEMETRY_DSN_FRONTEND: Text,
  ROUTING_SOURCE_APP: Type.String({ default: 'netdiag-backend', minLength: 1 }),
  REPO_STARS_REPOSITORY: Type.String({ default: REFERENCE_REPOSITORY, pattern: '^[\\w.-]+/[\\w.-]+$' }),
  SOURCE_CODE_URL: Type.String({ default: '', pattern: '^$|^https?://[^\\s]+$' }),

  SPEEDTEST_CLOUDFLARE: Flag,
  IPV4_ONLY_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://[^/]+$' }),
  IPV6_ONLY_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://[^/]+$' }),
  IPV6_LITERAL_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://\\[[0-9A-Fa-f:.]+\\](:\\d+)?$' }),
  IPV6_FALLBACK_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://[^/]+$' }),
  IPV6_DNS_ORIGIN: Type.String({ default: '', pattern: '^$|^https?://[^/]+$' }),
  RULE_TEST_ORIGINS: Type.String({ default: '', pattern: '^$|^https?://[^/,\\s]+(,https?://[^/,\\s]+){0,15}$' }),
  GLOBALPING_API_BASE: Type.Decode(
    Type.String({ default: 'https://api.globalping.io', pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$' }),
    (v) => v.replace(/\/+$/, ''),
  ),
  WEBRTC_STUN_SERVERS: StunServers,
  CONNECTIVITY_TARGETS: Type.String({
    default: '',
    pattern: `^$|^${CONNECTIVITY_TARGET}(,${CONNECTIVITY_TARGET}){0,59}$`,
  }),
  DNS_LEAK_PROVIDERS: Type.String({
    default: 'ipapi,surfshark,ipleak,fastly',
    pattern: `^${DNS_LEAK_PROVIDER}(,${DNS_LEAK_PROVIDER}){0,3}$`,
  }),
  SPEEDTEST_DOWNLOAD_MAX_BYTES: Type.Integer({ minimum: 1, default: 100_000_000 }),
  SPEEDTEST_UPLOAD_MAX_BYTES: Type.Integer({ minimum: 1, default: 50_000_000 }),
  SPEEDTEST_CLIENT_BYTES: Type.Integer({ minimum: 1, default: 2_000_000_000 }),
  SPEEDTEST_RATE_LIMIT: Type.Integer({ minimum: 0, default: 1000 }),
  SPEEDTEST_CLIENT_TRANSFERS: Type.Integer({ minimum: 1, default: 8 }),
  SPEEDTEST_TRANSFERS: Type.Integer({ minimum: 1, default: 64 }),
  SPEEDTEST_STALL_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  DNS_LEAK_ZONE: Type.String({ default: 'leak.ipcheck.ing', pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$' }),
  INVISIBILITY_TEST_KEY: Type.String({ default: '', pattern: '^[A-Za-z0-9_-]*$' }),
  INVISIBILITY_SCRIPT_ORIGIN: Type.String({
    default: 'https://proxydetectjs.ipcheck.ing',
    pattern: '^https?://[^/?#\\s]+$',
  }),
  // An issuer is HTTPS; plain HTTP only on the operator's own machine, where a test provider runs.
  OIDC_ISSUER: Type.String({
    default: '',
    pattern:
      '^$|^https://[^/?#\\s]+(/[^?#\\s]*)?$|^http://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:\\d{1,5})?(/[^?#\\s]*)?$',
  }),
  OIDC_CLIENT_ID: Type.String({ default: '', pattern: '^[\\x21-\\x7e]*$' }),
  OIDC_SCOPES: Type.String({
    default: 'openid profile email',
    pattern: '^([\\x21\\x23-\\x5b\\x5d-\\x7e]+ )*openid( [\\x21\\x23-\\x5b\\x5d-\\x7e]+)*$',
  }),

  GEODB_PROVIDER: Type.Enum(['maxmind', 'dbip'], { default: 'maxmind' }),
  GEODB_ACCOUNT_ID: Text,
  GEODB_LICENSE_KEY: Text,
  GEODB_AUTO_UPDATE: Flag,
  ASNDATA_AUTO_UPDATE: Flag,
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {}

/**
 * Reads the settings from an environment-like object. Unset and empty values
 * take the spec's defaults; a malformed value throws a ConfigError naming it.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties) as [string, TSchema][]) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    raw[name] = coerce(name, value, schema);
  }
  const withDefaults = Value.Default(ConfigSchema, raw);
  const [error] = Value.Errors(ConfigSchema, withDefaults);
  if (error) {
    const name = error.instancePath.replace(/^\//, '');
    throw new ConfigError(`Invalid setting ${name}=${JSON.stringify(env[name] ?? '')}: ${error.message}`);
  }
  const config = Value.Decode(ConfigSchema, withDefaults);
  if (config.REPORT_STORE === 'redis' && !config.REDIS_URL && !config.REPORT_REDIS_URL) {
    throw new ConfigError(
      'REPORT_STORE=redis needs REDIS_URL or REPORT_REDIS_URL: set one, or choose REPORT_STORE=kv or local',
    );
  }
  if (Boolean(config.OIDC_ISSUER) !== Boolean(config.OIDC_CLIENT_ID)) {
    throw new ConfigError('Sign-in needs both OIDC_ISSUER and OIDC_CLIENT_ID: set both, or neither');
  }
  return config;
}

function coerce(name: string, value: string, schema: TSchema): unknown {
  if (Type.IsInteger(schema)) {
    if (!/^\d+$/.test(value.trim())) {
      throw new ConfigError(`Invalid setting ${name}=${JSON.stringify(value)}: expected a whole number`);
    }
    return Number(value.trim());
  }
  if (Type.IsBoolean(schema)) {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new ConfigError(`Invalid setting ${name}=${JSON.stringify(value)}: expected true or false`);
  }
  return value;
}
