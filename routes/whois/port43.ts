import { connect } from 'node:net';

/** The most text kept from one WHOIS answer; a server sending more is cut off here. */
export const WHOIS_MAX_BYTES = 256 * 1024;
const WHOIS_PORT = 43;

export interface WhoisAnswer {
  server: string;
  text: string;
  /** True when the answer was cut off by the size cap, or by the deadline after some text arrived. */
  truncated: boolean;
}

export class WhoisError extends Error {
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
  /** `host:port` that receives every query instead of the named server (tests, offline demo). */
  override?: string;
  maxBytes?: number;
}

/**
 * One RFC 3912 query: connect, send the query line, read until the server
 * closes. Our own client rather than a library because it must stop at a size
 * cap and a deadline whatever the server does.
 */
export function queryWhois(server: string, query: string, options: Port43Options): Promise<WhoisAnswer> {
  const maxBytes = options.maxBytes ?? WHOIS_MAX_BYTES;
  let host = server;
  let port = WHOIS_PORT;
  if (options.override) {
    const at = options.override.lastIndexOf(':');
    host = options.override.slice(0, at);
    port = Number(options.override.slice(at + 1));
  }
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

    const timer = setTimeout(() => finish(true, 'WHOIS server timed out'), options.timeoutMs);
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
const REGISTRAR_LINE = /^[ \t]*(?:Registrar WHOIS Server|Whois Server):[ \t]*(?:whois:\/\/)?([^\s/:]+)(?::43)?\/?[ \t]*$/im;

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
