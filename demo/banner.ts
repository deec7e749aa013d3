import { DEMO_ADDRESSES } from '../test/support/fake-routes/demo-addresses.js';

// What `npm run demo` prints once both listeners answer: addresses that work
// as printed. The Referer gate accepts pages from localhost (not 127.0.0.1),
// so every address names localhost and every curl sends such a Referer.
const REFERER = "-H 'Referer: http://localhost/'";

/** The banner's line naming the addresses every fake source and registry holds data for. */
export const DEMO_ADDRESSES_LINE = 'Addresses with demo data in every geolocation source and in WHOIS: ';

/** `siteBuilt`: whether the front listener has a built site to serve (else it answers a 503 page that says so). */
export function demoBanner(ports: { api: string; front: string }, siteBuilt: boolean, visitorIp: string): string {
  const site = `http://localhost:${ports.front}`;
  return [
    '',
    'netdiag-backend demo: every upstream is a fake on this machine; no keys or internet needed.',
    siteBuilt ? `  the site:     ${site}/` : `  the site:     not built yet (npm run build), then ${site}/`,
    `  readiness:    ${site}/readyz`,
    `  (a loopback stand-in for a reverse proxy shows the site you as ${visitorIp})`,
    `${DEMO_ADDRESSES_LINE}${DEMO_ADDRESSES.join(', ')}`,
    'The API answers pages of the site, so a call needs their Referer:',
    `  curl ${REFERER} http://localhost:${ports.api}/api/configs`,
    `  curl ${REFERER} '${site}/api/geo-local?ip=8.8.8.8'`,
    `  curl ${REFERER} '${site}/api/dnsresolver?hostname=example.com&type=A'`,
    'Ctrl-C stops it.',
    '',
  ].join('\n');
}
