import { freePorts } from '../test/support/free-ports.js';
import { DEMO_OIDC_CLIENT, startOidcProvider } from '../demo/oidc-provider.js';
import { startSite } from './site-server.js';
import { createStunNetwork, shareStunNetwork } from '../demo/stun-network.js';

/**
 * One running demo for the whole browser run, its address reaching the tests
 * through E2E_BASE_URL, and the WebRTC tests' network namespace, made here
 * because no browser runs yet (demo/stun-network.ts). Without root the other
 * specs still run; a WebRTC test then fails saying why. Beside the demo a real
 * OpenID Connect provider, its issuer in the demo's settings (so the site
 * offers sign-in) and in E2E_OIDC_ISSUER, its signing key in E2E_OIDC_SIGNING_KEY; its client's redirect URIs need the
 * site's address, so its port is chosen first and it starts second.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stun = await createStunNetwork().catch((err: Error) => err);
  shareStunNetwork(stun instanceof Error ? stun : stun.network);
  const removeStun = async () => (stun instanceof Error ? undefined : stun.remove());
  const [oidcPort = 0] = await freePorts(1);
  const issuer = `http://localhost:${oidcPort}`;
  const site = await startSite({
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: DEMO_OIDC_CLIENT,
    // Every spec shares this one service from one address and many store a report: more than a visitor's 20 an hour.
    // The limit itself is tested against the API (test/report/).
    REPORT_RATE_LIMIT: '0',
  }).catch(async (err: unknown) => {
    await removeStun();
    throw err;
  });
  const oidc = await startOidcProvider(oidcPort, site.url).catch(async (err: unknown) => {
    await site.stop();
    await removeStun();
    throw err;
  });
  process.env.E2E_BASE_URL = site.url;
  process.env.E2E_OIDC_ISSUER = oidc.issuer;
  process.env.E2E_OIDC_SIGNING_KEY = JSON.stringify(oidc.signingKey);
  return async () => {
    await oidc.close();
    await site.stop();
    await removeStun();
  };
}
