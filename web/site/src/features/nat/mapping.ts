import { NAT_ANSWERS } from '@contract/nat-answers.js';
import { isIpv4, isIpv6 } from '../../lib/ip.js';
import type { SectionBody } from '../../lib/report-sections.js';

/** A round's or a run's answer, in the order of the one list (contract/nat-answers.ts). */
export type Answer = SectionBody<'nattest'>['families'][number]['mapping'];
export type Family = SectionBody<'nattest'>['families'][number]['family'];

/** A STUN server's address and port, as the list names them (a name stands for its address). */
export interface Endpoint {
  url: string;
  host: string;
  port: number;
}

/** `stun:host[:port]` (RFC 7064; 3478 by default), a bracketed IPv6 literal included; null for anything else. */
export function endpointOf(url: string): Endpoint | null {
  const match = /^stun:(\[[0-9a-fA-F:.]+\]|[^:[\]/?#]+)(?::(\d{1,5}))?$/.exec(url.trim());
  if (!match) return null;
  const host = (match[1] ?? '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = match[2] === undefined ? 3478 : Number(match[2]);
  return port > 0 && port <= 65535 ? { url, host, port } : null;
}

/** The distinct endpoints of a STUN list: the same server listed twice counts once. */
export function distinctEndpoints(urls: readonly string[]): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const url of urls) {
    const endpoint = endpointOf(url);
    if (endpoint && !seen.has(key(endpoint))) seen.set(key(endpoint), endpoint);
  }
  return [...seen.values()];
}

const key = (endpoint: Endpoint): string => `${endpoint.host}|${endpoint.port}`;

export function familyOf(ip: string): Family | null {
  if (isIpv4(ip)) return 'ipv4';
  return isIpv6(ip) ? 'ipv6' : null;
}

/** A server-reflexive candidate: the address and port a STUN server saw, from which local socket (`base`). */
export interface Reflexive {
  address: string;
  port: number;
  /** The candidate's foundation: the same for every server asked from one local address. */
  base: string;
  /** The server that answered, where the browser says it (RTCIceCandidate.url). */
  url?: string;
}

/**
 * One round: one connection asking every server at once (from one local
 * port per interface), and each server asked alone. Both are needed because a
 * browser drops a reflexive candidate equal to one it already has: a server
 * that sees the same mapping as another leaves no candidate of its own, and
 * only its lone answer tells it from a server that did not answer.
 */
export interface Round {
  /** The shared connection's server-reflexive candidates. */
  shared: Reflexive[];
  /** The servers (their URLs) that answered when asked alone, in each family. */
  answered: Record<Family, string[]>;
  /** Public addresses the browser gave as its own (host candidates): no NAT in front of them. */
  publicHosts: string[];
  /** The browser has no usable WebRTC. */
  unavailable?: boolean;
}

/** The biggest group of one local socket's candidates in a family: the most mappings seen from one port. */
function mappingsOf(shared: readonly Reflexive[], family: Family): Reflexive[] {
  const groups = new Map<string, Reflexive[]>();
  for (const candidate of shared) {
    if (familyOf(candidate.address) !== family) continue;
    const group = groups.get(candidate.base) ?? [];
    if (!group.some((c) => c.address === candidate.address && c.port === candidate.port)) group.push(candidate);
    groups.set(candidate.base, group);
  }
  return [...groups.values()].reduce<Reflexive[]>((best, group) => (group.length > best.length ? group : best), []);
}

/** Two servers on one host that saw different mappings, where the browser names each candidate's server. */
function portChangesMapping(mappings: readonly Reflexive[], byUrl: ReadonlyMap<string, Endpoint>): boolean {
  const named = mappings.flatMap((m) => {
    const endpoint = m.url === undefined ? undefined : byUrl.get(m.url);
    return endpoint ? [{ endpoint, mapped: `${m.address}|${m.port}` }] : [];
  });
  return named.some((a) =>
    named.some(
      (b) => a.endpoint.host === b.endpoint.host && a.endpoint.port !== b.endpoint.port && a.mapped !== b.mapped,
    ),
  );
}

/**
 * RFC 4787's mapping behaviour in one round and family, from how many
 * distinct mappings one local port got (D) against how many distinct servers
 * (E) on how many distinct addresses (H) answered:
 * - D = 1 with two addresses answering: endpoint-independent; with one
 *   address on two ports: endpoint-independent or address-dependent.
 * - D > H (more mappings than addresses, so one address gave two), or one
 *   address's two ports named with different mappings: address-and-port-dependent.
 * - D = H with an address answering on a second port (which then left no
 *   candidate of its own: it saw its address's mapping): address-dependent.
 * - otherwise (each address one port, each its own mapping): one of the two.
 */
export function classifyRound(urls: readonly string[], round: Round, family: Family): Answer {
  const endpoints = distinctEndpoints(urls);
  if (endpoints.length < 2) return 'few-servers';
  if (round.unavailable) return 'unavailable';
  const byUrl = new Map(endpoints.map((e) => [e.url, e]));
  const mappings = mappingsOf(round.shared, family);
  if (mappings.length === 0) {
    return round.publicHosts.some((ip) => familyOf(ip) === family) ? 'no-nat' : 'no-answer';
  }
  // A candidate naming its server is an answer too, should the lone ask have been lost.
  const answered = new Map<string, Endpoint>();
  for (const url of [...round.answered[family], ...mappings.flatMap((m) => (m.url ? [m.url] : []))]) {
    const endpoint = byUrl.get(url);
    if (endpoint) answered.set(key(endpoint), endpoint);
  }
  if (answered.size < 2) return 'one-answered';
  const hosts = new Set([...answered.values()].map((e) => e.host)).size;
  const d = mappings.length;
  if (d === 1) return hosts >= 2 ? 'endpoint-independent' : 'endpoint-or-address-dependent';
  if (d > hosts || portChangesMapping(mappings, byUrl)) return 'address-and-port-dependent';
  if (d === hosts && answered.size > hosts) return 'address-dependent';
  return 'address-or-port-dependent';
}

/** A family's answer over the rounds: the most frequent one, and in how many rounds it came. */
export interface FamilySummary {
  family: Family;
  answer: Answer;
  agreeing: number;
  rounds: number;
  /** Every round's answer, in order: a flip shows here. */
  answers: Answer[];
}

// Where rounds disagree in equal numbers, the more cautious answer leads (the later one in NAT_ANSWERS).
function mostFrequent(answers: readonly Answer[]): { answer: Answer; count: number } {
  let best: { answer: Answer; count: number } = { answer: 'no-answer', count: 0 };
  for (const answer of NAT_ANSWERS) {
    const count = answers.filter((a) => a === answer).length;
    if (count > 0 && count >= best.count) best = { answer, count };
  }
  return best;
}

/**
 * The run's answer per family: IPv4 always, IPv6 only where a round saw
 * anything of it (an answer, a mapping or a public address of the device).
 */
export function summarize(urls: readonly string[], rounds: readonly Round[]): FamilySummary[] {
  const sawIpv6 = rounds.some(
    (r) =>
      r.answered.ipv6.length > 0 ||
      r.shared.some((c) => familyOf(c.address) === 'ipv6') ||
      r.publicHosts.some((ip) => familyOf(ip) === 'ipv6'),
  );
  const families: Family[] = sawIpv6 ? ['ipv4', 'ipv6'] : ['ipv4'];
  return families.map((family) => {
    const answers = rounds.map((round) => classifyRound(urls, round, family));
    const { answer, count } = mostFrequent(answers);
    return { family, answer, agreeing: count, rounds: rounds.length, answers };
  });
}

/** The older names (RFC 3489's) a mapping behaviour goes by. */
export type CommonName = 'cone' | 'symmetric' | 'cone-or-symmetric' | 'open' | 'unknown';

export function commonName(answer: Answer): CommonName {
  switch (answer) {
    case 'endpoint-independent':
      return 'cone';
    case 'address-dependent':
    case 'address-and-port-dependent':
    case 'address-or-port-dependent':
      return 'symmetric';
    case 'endpoint-or-address-dependent':
      return 'cone-or-symmetric';
    case 'no-nat':
      return 'open';
    default:
      return 'unknown';
  }
}
