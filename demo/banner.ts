import { DEMO_ADDRESSES } from '../test/support/fake-routes/demo-addresses.js';

// What `npm run demo` prints once both listeners answer: addresses that work
// as printed. The Referer gate accepts pages from localhost (not 127.0.0.1),
// so every address names localhost and every curl sends such a Referer.
const REFERER = "-H 'Referer: http://localhost/'";

/** The banner's line naming the addresses every fake source and registry holds data for. */
export const DEMO_ADDRESSES_LINE = 'Addresses with demo data in every geolocation source and in WHOIS: ';

/** The stand-ins for the third parties the site's pages call from the visitor's browser; undefined: a setting given to the demo names another. */
export interface DemoFakes {
  /** The probe network's API (GLOBALPING_API_BASE). */
  probeNetwork?: string;
  /** The proxy rule test's echo services (RULE_TEST_ORIGINS): this same service under its one-family hostnames. */
  ruleTestOrigins: string[];
  /** The proxy-detection script's origin (INVISIBILITY_SCRIPT_ORIGIN). */
  detectionScript?: string;
  /** The in-depth DNS leak test's zone (DNS_LEAK_ZONE), on loopback. */
  leakZone?: string;
  /** The OpenID provider (OIDC_ISSUER) and the demo account's login. */
  signIn?: { issuer: string; login: string };
  /** The connectivity test's sites (CONNECTIVITY_TARGETS): where they answer, and what they stand for. */
  sites?: { origin: string; names: string[] };
  /** The DNS leak test's providers (DNS_LEAK_PROVIDERS) and the resolver they name. */
  leakProviders?: { origins: string[]; resolver: string };
  /** The STUN server (WEBRTC_STUN_SERVERS) and whom it presents the visitor as, or why the demo has none. */
  stun?: { url: string; presents: string } | { missing: string };
}

/** The banner's line before the browser's fakes. */
export const BROWSER_FAKES_LINE = 'Stand-ins for what the pages call from your browser:';

/** The banner's line when the demo could not run its STUN server, before the reason. */
export const NO_STUN_LINE = '  · no STUN server: the WebRTC page asks the public ones, since ';

function browserFakes(fakes: DemoFakes): string[] {
  return [
    BROWSER_FAKES_LINE,
    ...(fakes.probeNetwork ? [`  · the probe network (latency, traceroute, censorship): ${fakes.probeNetwork}`] : []),
    ...(fakes.ruleTestOrigins.length
      ? [`  · the proxy rule test's echo services: this service at ${fakes.ruleTestOrigins.join(' and ')}`]
      : []),
    ...(fakes.signIn
      ? [`  · the sign-in provider: ${fakes.signIn.issuer}, as ${fakes.signIn.login} with any password`]
      : []),
    ...(fakes.detectionScript ? [`  · the proxy-detection script: ${fakes.detectionScript}`] : []),
    ...(fakes.leakZone ? [`  · the in-depth DNS leak test's zone: ${fakes.leakZone}`] : []),
    ...(fakes.sites
      ? [`  · the connectivity test's sites (${fakes.sites.names.join(', ')}): ${fakes.sites.origin}`]
      : []),
    ...(fakes.leakProviders
      ? [
          `  · the DNS leak test's providers (ip-api.com, Surfshark, IPLeak.net, Fastly), naming ${fakes.leakProviders.resolver} as your resolver: ${fakes.leakProviders.origins.join(', ')}`,
        ]
      : []),
    ...stunLine(fakes.stun),
  ];
}

function stunLine(stun: DemoFakes['stun']): string[] {
  if (!stun) return [];
  if ('missing' in stun) return [`${NO_STUN_LINE}${stun.missing}`];
  return [`  · the WebRTC test's STUN server (coturn, behind a NAT showing you as ${stun.presents}): ${stun.url}`];
}

/** `siteBuilt`: whether the front listener has a built site to serve (else it answers a 503 page that says so). */
export function demoBanner(
  ports: { api: string; front: string },
  siteBuilt: boolean,
  visitorIp: string,
  fakes: DemoFakes,
): string {
  const site = `http://localhost:${ports.front}`;
  return [
    '',
    'netdiag-backend demo: every upstream of the service is a fake on this machine; no keys or internet needed.',
    siteBuilt ? `  the site:     ${site}/` : `  the site:     not built yet (npm run build), then ${site}/`,
    `  readiness:    ${site}/readyz`,
    `  (a loopback stand-in for a reverse proxy shows the site you as ${visitorIp})`,
    `${DEMO_ADDRESSES_LINE}${DEMO_ADDRESSES.join(', ')}`,
    ...browserFakes(fakes),
    'The API answers pages of the site, so a call needs their Referer:',
    `  curl ${REFERER} http://localhost:${ports.api}/api/configs`,
    `  curl ${REFERER} '${site}/api/geo-local?ip=8.8.8.8'`,
    `  curl ${REFERER} '${site}/api/dnsresolver?hostname=example.com&type=A'`,
    'Ctrl-C stops it.',
    '',
  ].join('\n');
}
