import { startSite } from './site-server.js';

/** One running demo for the whole browser run; its address reaches the tests through E2E_BASE_URL. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const site = await startSite();
  process.env.E2E_BASE_URL = site.url;
  return site.stop;
}
