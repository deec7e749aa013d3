import { connect } from 'node:net';
import { UpstreamError } from '../../lib/upstream-failure.js';
import { HostRefused, publicAddress, refusedWithoutLookup, systemLookup, type Lookup } from './public-host.js';

/** The most text kept from one WHOIS answer; a server sending more is cut off here. */
export const WHOIS_MAX_BYTES = 256 * 1024;
const WHOIS_PORT = 43;

export interface WhoisAnswer {
  server: string;
  text: string;
  /** True when the answer was cut off by the size cap, or by the deadline after some text arrived. */
  truncated: boolean;
}

/** A WHOIS server that did not answer: an upstream's failure like any other, logged without a stack. */
export class WhoisError extends UpstreamError {
  constructor(
    message: string,
    readonly server: string,
  ) {
    super(message);
    this.name = 'WhoisError';
  }
}

export interface Port43Options {
  timeoutMs: number;
  /**
   * `host:port` that receives every query instead of the named server (tests,
   * offline demo). The operator chose that address, so it is not checked;
   * only the named server's name still is.
   */
  override?: string;
  maxBytes?: number;
  /** Resolves a server's name for the public-address check; the process's resolver (systemLookup) unless given one. */
  lookup?: Lookup;
}

/**
 * Where a query for `server` goes: the override, or the public address the
 * server's name resolves to (publicAddress refuses any other). A name no
 * public server can have is refused either way, before any connection.
 */
async function destination(
  server: string,
  options: Port43Options,
  deadline: number,
): Promise<{ host: string; port: number }> {
  if (options.override) {
    const reason = refusedWithoutLookup(server);
    if (reason) throw new HostRefused(server, reason);
    const at = options.override.lastIndexOf(':');
    return { host: options.override.slice(0, at), port: Number(options.override.slice(at + 1)) };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new WhoisError('WHOIS server name did not resolve in time', server)),
      deadline - Date.now(),
    );
  });
  try {
    return {
      host: await Promise.race([publicAddress(server, options.lookup ?? systemLookup), timeout]),
      port: WHOIS_PORT,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One RFC 3912 query: check where it goes, connect, send the query line, read
 * until the server closes. Our own client rather than a library because it
 * must stop at a size cap and a deadline whatever the server does, and
 * connect only to the address it checked. The deadline covers the name
 * lookup too.
 */
export async function queryWhois(server: string, query: string, options: Port43Options): Promise<WhoisAnswer> {
  const maxBytes = options.maxBytes ?? WHOIS_MAX_BYTES;
  const deadline = Date.now() + options.timeoutMs;
  const { host, port } = await destination(server, options, deadline);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const socket = connect({ host, port });

    const finish = (truncated: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error && size === 0) {
        reject(new WhoisError(error, server));
        return;
      }
      const text = Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
      resolve({ server, text, truncated: truncated || error !== undefined });
    };

    const timer = setTimeout(() => finish(true, 'WHOIS server timed out'), Math.max(0, deadline - Date.now()));
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(`${query}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) finish(size > maxBytes);
    });
    socket.on('end', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('error', (err) => finish(true, `WHOIS server unreachable: ${err.message}`));
  });
}

const REFERRAL_LINES = [/^whois:[ \t]*(\S+)[ \t]*$/im, /^refer:[ \t]*(\S+)[ \t]*$/im];

/**
 * The value of the first `whois:` (else `refer:`) line of a whois.iana.org
 * answer: the registry's WHOIS server, or undefined when IANA names none.
 */
export function referralServer(text: string): string | undefined {
  for (const line of REFERRAL_LINES) {
    const match = line.exec(text);
    if (match) return match[1]!.toLowerCase();
  }
  return undefined;
}

// gTLD registries name the registrar's server as "Registrar WHOIS Server:";
// older thin-registry answers call it "Whois Server:".
const REGISTRAR_LINE =
  /^[ \t]*(?:Registrar WHOIS Server|Whois Server):[ \t]*(?:whois:\/\/)?([^\s/:]+)(?::43)?\/?[ \t]*$/im;

/**
 * The registrar's WHOIS server named in a registry's answer (lower-cased),
 * or undefined when there is none; a URL of another scheme is not a
 * port-43 server and does not count.
 */
export function registrarServer(text: string): string | undefined {
  return REGISTRAR_LINE.exec(text)?.[1]!.toLowerCase();
}

// Verisign's registry searches name-server hosts and registrars as well as
// domains for a bare name ("google.com" also lists hosts named like it); the
// "domain" keyword keeps to the domain record, as GNU whois sends it.
const DOMAIN_KEYWORD_SERVERS = new Set(['whois.verisign-grs.com']);

/** The query line for a domain at `server`. */
export function domainQuery(server: string, domain: string): string {
  return DOMAIN_KEYWORD_SERVERS.has(server) ? `domain ${domain}` : domain;
}
