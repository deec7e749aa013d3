import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../lib/app-root.js';
import { startAllFakes } from '../test/support/fakes.js';
import { demoBanner, type DemoFakes } from './banner.js';
import { DEMO_OIDC_CLIENT, DEMO_USER, startOidcProvider, type RunningProvider } from './oidc-provider.js';
import { demoPorts } from './ports.js';
import { startDetectionScript } from './detection-script.js';
import { startProbeNetwork } from './probe-network.js';
import { startVisitorProxy } from './visitor-proxy.js';
import { startConnectivitySites, STOOD_FOR } from './connectivity-sites.js';
import { startLeakProviders } from './dns-leak-providers.js';
import { startDemoStun } from './stun.js';

// npm run demo: the real server.ts, every upstream answered by loopback fakes,
// so a newcomer without keys or internet sees every route answer. The browser
// opens the site through a loopback stand-in for a reverse proxy, which
// presents it as DEMO_VISITOR_IP (a public address the fakes know), so the
// home page has an address to show; the service itself sees an ordinary
// X-Forwarded-For, as behind a real reverse proxy. The third parties the
// site's pages call from the browser are faked too, where a setting can point
// the site at a fake; a setting given to the demo (a test's own fake) wins.
const PORTS = ((): ReturnType<typeof demoPorts> => {
  try {
    return demoPorts(process.env);
  } catch (err) {
    // A mistyped setting: its one line, not a stack.
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
})();
const VISITOR_IP = process.env.DEMO_VISITOR_IP ?? '8.8.8.8';
const VISITOR_IPV6 = process.env.DEMO_VISITOR_IPV6 ?? '2001:4860:4860::8888';
const FRONT_LISTENING = /\bfront listener at /;
// Browsers resolve every *.localhost name to loopback, without asking a resolver.
const DEMO_LEAK_ZONE = 'leak.localhost';
// The resolver the DNS leak test's stand-ins name: Google Public DNS, in the visitor's country.
const DEMO_RESOLVER = '8.8.8.53';

const fakes = await startAllFakes({
  http: PORTS.DEMO_UPSTREAM_PORT,
  dns: PORTS.DEMO_DNS_PORT,
  whois: PORTS.DEMO_WHOIS_PORT,
});
const dataDir = await mkdtemp(join(tmpdir(), 'netdiag-demo-'));
const front = { host: '127.0.0.1', port: PORTS.DEMO_SERVICE_PORT };
const proxy = await startVisitorProxy(front, VISITOR_IP, PORTS.FRONTEND_PORT);
const site = `http://localhost:${proxy.port}`;
// The stand-ins for an operator's IPv4-only and IPv6-only hostnames of the
// service (IPV4_ONLY_ORIGIN, IPV6_ONLY_ORIGIN): one listening on IPv4
// loopback only, one on IPv6 loopback only, each presenting the visitor's
// address in its family. Browsers resolve any *.localhost name to loopback;
// a host name, since a CSP source cannot name an IPv6 address.
const v4Proxy = await startVisitorProxy(front, VISITOR_IP, PORTS.DEMO_IPV4_PORT, '127.0.0.1');
const v6Proxy = await startVisitorProxy(front, VISITOR_IPV6, PORTS.DEMO_IPV6_PORT, '::1');
const v4Origin = `http://ipv4-only.localhost:${v4Proxy.port}`;
const v6Origin = `http://ipv6-only.localhost:${v6Proxy.port}`;
// The probe network the latency, traceroute and censorship pages measure with.
const probes =
  process.env.GLOBALPING_API_BASE === undefined ? await startProbeNetwork(PORTS.DEMO_PROBES_PORT) : undefined;
// The OpenID provider with the demo account, so the signed-in tools can be tried.
const oidc: RunningProvider | undefined =
  process.env.OIDC_ISSUER === undefined ? await startOidcProvider(PORTS.DEMO_OIDC_PORT, site) : undefined;
// The signed-in tools' browser side: the proxy-detection script, and a leak-test
// zone whose names the browser looks up on loopback (the companion's answer is
// the fake private API's fixture either way).
const script =
  process.env.INVISIBILITY_SCRIPT_ORIGIN === undefined ? await startDetectionScript(PORTS.DEMO_SCRIPT_PORT) : undefined;
const leakZone = process.env.DNS_LEAK_ZONE === undefined ? DEMO_LEAK_ZONE : undefined;
// The connectivity test's sites, the DNS leak test's providers and the WebRTC test's STUN server.
const sites =
  process.env.CONNECTIVITY_TARGETS === undefined ? await startConnectivitySites(PORTS.DEMO_SITES_PORT) : undefined;
const leakProviders =
  process.env.DNS_LEAK_PROVIDERS === undefined
    ? await startLeakProviders(PORTS.DEMO_LEAK_PROVIDERS_PORT, DEMO_RESOLVER)
    : undefined;
const stun =
  process.env.WEBRTC_STUN_SERVERS === undefined ? await startDemoStun(PORTS.DEMO_STUN_PORT, VISITOR_IP) : undefined;
const stunServer = stun && 'url' in stun ? stun : undefined;
const demoFakes: DemoFakes = {
  probeNetwork: probes?.apiBase,
  detectionScript: script?.origin,
  leakZone,
  ruleTestOrigins: process.env.RULE_TEST_ORIGINS === undefined ? [v4Origin, v6Origin] : [],
  signIn: oidc && { issuer: oidc.issuer, login: DEMO_USER.sub },
  sites: sites && { origin: sites.origin, names: STOOD_FOR.map((site) => site.name) },
  leakProviders: leakProviders && {
    origins: leakProviders.setting.split(',').map((entry) => new URL(entry.slice(entry.indexOf('=') + 1)).origin),
    resolver: leakProviders.resolver,
  },
  stun: stun && ('url' in stun ? { url: stun.url, presents: VISITOR_IP } : stun),
};

const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  cwd: APP_ROOT,
  stdio: ['inherit', 'pipe', 'inherit'],
  env: {
    ...process.env,
    // Its output passes through a pipe here; a terminal still gets colours.
    ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
    ...fakes.env,
    BACKEND_PORT: String(PORTS.BACKEND_PORT),
    FRONTEND_PORT: String(PORTS.DEMO_SERVICE_PORT),
    DATA_DIR: dataDir,
    IPV4_ONLY_ORIGIN: v4Origin,
    IPV6_ONLY_ORIGIN: v6Origin,
    // The IPv6 readiness page's "IPv6 broken" name: the IPv4 stand-in's port, where [::1] refuses.
    IPV6_FALLBACK_ORIGIN: `http://ipv6-broken.localhost:${v4Proxy.port}`,
    // The proxy rule test asks this same service under its two one-family hostnames.
    ...(demoFakes.ruleTestOrigins.length ? { RULE_TEST_ORIGINS: demoFakes.ruleTestOrigins.join(',') } : {}),
    ...(probes ? { GLOBALPING_API_BASE: probes.apiBase } : {}),
    ...(script ? { INVISIBILITY_SCRIPT_ORIGIN: script.origin } : {}),
    ...(leakZone ? { DNS_LEAK_ZONE: leakZone } : {}),
    ...(oidc ? { OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: DEMO_OIDC_CLIENT } : {}),
    ...(sites ? { CONNECTIVITY_TARGETS: sites.setting } : {}),
    ...(leakProviders ? { DNS_LEAK_PROVIDERS: leakProviders.setting } : {}),
    ...(stunServer ? { WEBRTC_STUN_SERVERS: stunServer.url } : {}),
  },
});
// The service's front listener sits behind the stand-in proxy: its line would
// offer an address that bypasses the proxy (and so the visitor's address), so
// the banner's address, through the proxy, is the only one printed.
createInterface({ input: child.stdout! }).on('line', (line) => {
  if (!FRONT_LISTENING.test(line)) process.stdout.write(`${line}\n`);
});

// The banner comes last, once the service is ready through the visitor's
// proxy (which says 502 until the front listener answers): the listeners open
// before the start-up steps load the datasets, and a page opened from the
// banner should find them loaded.
void (async () => {
  const direct = `http://127.0.0.1:${proxy.port}`;
  while (child.exitCode === null) {
    try {
      const health = await request(`${direct}/readyz`);
      await health.body.dump();
      if (health.statusCode === 200) {
        const page = await request(`${direct}/`);
        await page.body.dump();
        process.stdout.write(
          demoBanner(
            { api: String(PORTS.BACKEND_PORT), front: String(proxy.port) },
            page.statusCode === 200,
            VISITOR_IP,
            demoFakes,
          ),
        );
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

async function stopAll(): Promise<void> {
  await Promise.all([
    proxy.close(),
    v4Proxy.close(),
    v6Proxy.close(),
    probes?.close(),
    script?.close(),
    oidc?.close(),
    sites?.close(),
    leakProviders?.close(),
    stunServer?.close(),
  ]);
  await fakes.close();
  await rm(dataDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
const [code] = (await once(child, 'exit')) as [number | null];
await stopAll();
process.exitCode = code ?? 0;
