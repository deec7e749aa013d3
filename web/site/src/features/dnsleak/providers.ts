import { isIp } from '../../lib/ip.js';
import { randomLabel, shortLabel, timedLabel, type NameSource } from './random-names.js';

/**
 * A leak-test provider: a fresh random name under its zone, looked up by the
 * browser through the visitor's resolver, and its answer naming the resolver
 * that asked. Each answer is JSON read from a CORS GET.
 */
export interface Provider {
  id: string;
  name: string;
  url: (names: NameSource) => string;
  /** The resolver's address in the provider's answer, or null when it names none. */
  read: (body: unknown) => string | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const address = (value: unknown): string | null => (typeof value === 'string' && isIp(value) ? value : null);

/** ip-api.com: `{"dns": {"ip": "…", "geo": "…"}, "edns": …}`. */
function readIpApi(body: unknown): string | null {
  return isObject(body) && isObject(body.dns) ? address(body.dns.ip) : null;
}

/** Surfshark: an object of lookups, each `{"Country": …, "IP": "…", "ISP": …}`; the first with an IP. */
function readSurfshark(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const value of Object.values(body)) {
    const ip = isObject(value) ? address(value.IP) : null;
    if (ip) return ip;
  }
  return null;
}

/** IPLeak.net: `{"ip": {"<resolver>": <queries>, …}}`; the resolver that asked most. */
function readIpLeak(body: unknown): string | null {
  if (!isObject(body) || !isObject(body.ip)) return null;
  let best: string | null = null;
  let most = -Infinity;
  for (const [ip, count] of Object.entries(body.ip)) {
    const n = typeof count === 'number' ? count : Number(count);
    if (address(ip) && Number.isFinite(n) && n > most) {
      best = ip;
      most = n;
    }
  }
  return best;
}

/** Fastly: `{"dns_resolver_info": {"ip": "…", …}, …}`. */
function readFastly(body: unknown): string | null {
  return isObject(body) && isObject(body.dns_resolver_info) ? address(body.dns_resolver_info.ip) : null;
}

// Each provider's fresh label, in the shape its name server expects.
const LABELS: Record<string, (names: NameSource) => string> = {
  ipapi: timedLabel,
  surfshark: shortLabel,
  ipleak: (names) => randomLabel(names, 40),
  fastly: timedLabel,
};
const at = (template: string, id: string) => (names: NameSource) => template.replace('*', LABELS[id]!(names));

/** In the order they are asked (MyIP 7.4.0's). */
export const PROVIDERS: readonly Provider[] = [
  { id: 'ipapi', name: 'ip-api.com', url: at('https://*.edns.ip-api.com/json', 'ipapi'), read: readIpApi },
  { id: 'surfshark', name: 'Surfshark', url: at('https://*.ipv4.surfsharkdns.com/', 'surfshark'), read: readSurfshark },
  { id: 'ipleak', name: 'IPLeak.net', url: at('https://*-1.ipleak.net/dnsdetection/', 'ipleak'), read: readIpLeak },
  {
    id: 'fastly',
    name: 'Fastly',
    url: at('https://*.u.fastly-analytics.com/debug_resolver', 'fastly'),
    read: readFastly,
  },
];

/**
 * The providers the operator chose (DNS_LEAK_PROVIDERS, read from the site's
 * settings), in their order, each asked where the setting places it (a
 * stand-in answering in its shape), else at its own address.
 */
export function chosenProviders(chosen: ReadonlyArray<{ id: string; url: string | null }>): Provider[] {
  return chosen.flatMap(({ id, url }) => {
    const provider = PROVIDERS.find((p) => p.id === id);
    if (!provider) return [];
    return [url ? { ...provider, url: at(url, id) } : provider];
  });
}
