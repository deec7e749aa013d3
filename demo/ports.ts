// Every port `npm run demo` listens on, each set by an environment variable
// of its own, with a fixed default: none is chosen at random, so on a machine
// where one is taken the operator moves that one, and a browser bookmark or a
// curl line keeps working from one run to the next.

/** What each port is for, and its default. */
export const DEMO_PORTS = {
  BACKEND_PORT: { what: 'the API listener', default: 11966 },
  FRONTEND_PORT: { what: 'the site, through the stand-in for a reverse proxy', default: 18966 },
  DEMO_SERVICE_PORT: { what: "the service's own front listener, behind that stand-in", default: 18970 },
  DEMO_IPV4_PORT: { what: "the stand-in for the service's IPv4-only hostname", default: 18971 },
  DEMO_IPV6_PORT: { what: "the stand-in for the service's IPv6-only hostname", default: 18972 },
  DEMO_UPSTREAM_PORT: { what: 'the fake of every HTTP upstream', default: 18973 },
  DEMO_DNS_PORT: { what: 'the fake DNS server (UDP)', default: 18974 },
  DEMO_WHOIS_PORT: { what: 'the fake WHOIS server', default: 18975 },
  DEMO_OIDC_PORT: { what: 'the OpenID Connect provider', default: 18976 },
  DEMO_PROBES_PORT: { what: "the stand-in for the probe network's API", default: 18977 },
  DEMO_SCRIPT_PORT: { what: "the stand-in for the proxy-detection script's origin", default: 18978 },
  DEMO_SITES_PORT: { what: "the stand-ins for the connectivity test's sites", default: 18979 },
  DEMO_LEAK_PROVIDERS_PORT: { what: "the stand-ins for the DNS leak test's providers", default: 18980 },
  DEMO_STUN_PORT: { what: 'the STUN server (UDP, in its own network namespace)', default: 18981 },
} as const;

export type DemoPort = keyof typeof DEMO_PORTS;

/** The ports from `env`, each its default when unset; a value that is not a port stops the demo saying which. */
export function demoPorts(env: NodeJS.ProcessEnv): Record<DemoPort, number> {
  const names = Object.keys(DEMO_PORTS) as DemoPort[];
  return Object.fromEntries(
    names.map((name) => {
      const given = env[name];
      if (given === undefined || given === '') return [name, DEMO_PORTS[name].default];
      const port = Number(given);
      if (!/^\d+$/.test(given) || port < 1 || port > 65535) {
        throw new Error(`${name} must be a port number from 1 to 65535 (${DEMO_PORTS[name].what}), not "${given}"`);
      }
      return [name, port];
    }),
  ) as Record<DemoPort, number>;
}

/** Settings that put every demo port on one of `free` (as many as DEMO_PORTS names), for a test beside other demos. */
export function demoPortsEnv(free: readonly number[]): Record<DemoPort, string> {
  const names = Object.keys(DEMO_PORTS) as DemoPort[];
  if (free.length < names.length) throw new Error(`${names.length} ports needed, ${free.length} given`);
  return Object.fromEntries(names.map((name, i) => [name, String(free[i])])) as Record<DemoPort, string>;
}
