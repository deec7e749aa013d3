import type { Config } from '../../fastify.config.js';

/** Report sharing needs the store's key (RADAR_API_KEY carries KV edit rights), account and namespace. */
export function reportSharingConfigured(config: Config): boolean {
  return Boolean(config.RADAR_API_KEY && config.KV_ACCOUNT_ID && config.KV_NAMESPACE_ID);
}
