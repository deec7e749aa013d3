import type { Config } from '../../fastify.config.js';

/** Report sharing needs the store's key (RADAR_API_KEY carries KV edit rights), account and namespace. */
export function reportSharingConfigured(config: Config): boolean {
  return Boolean(config.RADAR_API_KEY && config.KV_ACCOUNT_ID && config.KV_NAMESPACE_ID);
}

/** The Redis reports live in with REPORT_STORE=redis: REPORT_REDIS_URL, else the limiters' REDIS_URL. */
export function reportRedisUrl(config: Config): string | undefined {
  return config.REPORT_STORE === 'redis' ? config.REPORT_REDIS_URL || config.REDIS_URL : undefined;
}
