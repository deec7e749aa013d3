import { startSite } from './site-server.js';
import { createStunNetwork, shareStunNetwork } from './stun-network.js';

/**
 * One running demo for the whole browser run, its address reaching the tests
 * through E2E_BASE_URL, and the WebRTC tests' network namespace, made here
 * because no browser runs yet (e2e/stun-network.ts). Without root the other
 * specs still run; a WebRTC test then fails saying why.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stun = await createStunNetwork().catch((err: Error) => err);
  shareStunNetwork(stun instanceof Error ? stun : stun.network);
  const removeStun = async () => (stun instanceof Error ? undefined : stun.remove());
  const site = await startSite().catch(async (err: unknown) => {
    await removeStun();
    throw err;
  });
  process.env.E2E_BASE_URL = site.url;
  return async () => {
    await site.stop();
    await removeStun();
  };
}
