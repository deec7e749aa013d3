// Address syntax for links and the lookup box. The API's guards stay the
// judges of what may be looked up; these only choose where a link goes.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

export function isIpv6(text: string): boolean {
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return false;
  try {
    // The URL parser holds a complete IPv6 grammar; a bad address throws.
    // eslint-disable-next-line no-new
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

export function isIp(text: string): boolean {
  return isIpv4(text) || isIpv6(text);
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail folded in). */
export function ipv6Groups(ip: string): number[] {
  const host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail = ''] = host.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = host.includes('::') ? 8 - left.length - right.length : 0;
  return [...left, ...Array<number>(fill).fill(0), ...right];
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

const V4_RESERVED: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * Whether an address is one no geolocation source knows: loopback, private,
 * link-local and the like. The visitor's own address is checked here so a
 * self-hosted box on a LAN gets a plain sentence instead of seven refusals.
 */
export function isReserved(ip: string): boolean {
  if (isIpv4(ip)) {
    const n = ipv4Number(ip);
    return V4_RESERVED.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(ipv4Number(base) / 2 ** (32 - bits)),
    );
  }
  if (!isIpv6(ip)) return false;
  const g = ipv6Groups(ip);
  const first = g[0] ?? 0;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return isReserved(`${(g[6] ?? 0) >> 8}.${(g[6] ?? 0) & 255}.${(g[7] ?? 0) >> 8}.${(g[7] ?? 0) & 255}`);
  }
  return (
    g.slice(0, 7).every((x) => x === 0) || // :: and ::1
    (first & 0xfe00) === 0xfc00 || // unique local
    (first & 0xffc0) === 0xfe80 || // link-local
    (first & 0xff00) === 0xff00 || // multicast
    (first === 0x2001 && g[1] === 0x0db8) // documentation
  );
}

/** The routing prefix a lookup of `ip` starts from: its /24 (IPv4) or /48 (IPv6). */
export function prefixOf(ip: string): string | null {
  if (isIpv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIpv6(ip)) return null;
  const groups = ipv6Groups(ip)
    .slice(0, 3)
    .map((x) => x.toString(16));
  return `${groups.join(':')}::/48`;
}

/** A CIDR prefix `address/length` with a length that fits the address family. */
export function isPrefix(text: string): boolean {
  const [address = '', length = '', ...rest] = text.split('/');
  if (rest.length || !/^\d{1,3}$/.test(length)) return false;
  const bits = Number(length);
  return (isIpv4(address) && bits <= 32) || (isIpv6(address) && bits <= 128);
}

/** 12 hex digits of a MAC address written with or without `:`, `-` or `.` separators. */
export function macDigits(text: string): string | null {
  const digits = text.replace(/[:.\-\s]/g, '');
  return /^[0-9a-fA-F]{12}$/.test(digits) ? digits.toUpperCase() : null;
}

/** A MAC address in colon pairs, the form its page's link uses. */
export function macPairs(digits: string): string {
  return digits.match(/../g)?.join(':') ?? digits;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function isDomain(text: string): boolean {
  return DOMAIN.test(text);
}

/**
 * The host a typed name or a pasted URL names: scheme, credentials, port,
 * path, query and a final dot taken off, lower-cased; an IPv6 address loses
 * its URL brackets. '' when the text names no host.
 */
export function hostIn(input: string): string {
  const text = input.trim();
  if (isIp(text)) return text;
  // An address with a length is a prefix, right or wrong, never an address with a path.
  if (/^[0-9a-f:.]+\/\d*$/i.test(text)) return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  if (!URL.canParse(withScheme)) return '';
  const host = new URL(withScheme).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  return host.toLowerCase();
}

// What each form of the site reads from its box: a value to look up, or null when the text is not one.
// Every form reads a pasted URL the same way, through hostIn().

/** A domain, from a name or a URL. */
export function readDomain(input: string): string | null {
  const host = hostIn(input);
  return isDomain(host) ? host : null;
}

/** A domain or an IP address, from a name, an address or a URL. */
export function readDomainOrIp(input: string): string | null {
  const host = hostIn(input);
  return isIp(host) || isDomain(host) ? host : null;
}

/** An AS number as digits, written with or without `AS`. */
export function readAsn(input: string): string | null {
  const asn = /^(?:AS)?\s*(\d{1,10})$/i.exec(input.trim());
  return asn && Number(asn[1]) <= 4294967295 ? String(Number(asn[1])) : null;
}

/** A CIDR prefix. */
export function readPrefix(input: string): string | null {
  const text = input.trim();
  return isPrefix(text) ? text : null;
}

/** A MAC address in colon pairs. */
export function readMac(input: string): string | null {
  const digits = macDigits(input.trim());
  return digits ? macPairs(digits) : null;
}

/** Where the lookup box sends a query, or null when it is none of the things the site looks up. */
export function lookupTarget(input: string): { path: string; query?: Record<string, string> } | null {
  const asn = readAsn(input);
  if (asn) return { path: `/asn/${asn}` };
  const prefix = readPrefix(input);
  if (prefix) return { path: `/prefix/${prefix}` };
  const mac = readMac(input);
  if (mac) return { path: `/mac/${mac}` };
  const target = readDomainOrIp(input);
  if (target && isIp(target)) return { path: `/ip/${target}` };
  if (target) return { path: '/whois', query: { q: target } };
  return null;
}
