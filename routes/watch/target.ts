import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { NameResolver } from '../../lib/network/name-resolver.js';
import { isPublicIp } from '../../lib/network/public-address.js';

/** Longer than any webhook a person types or a push service issues. */
export const MAX_URL_LENGTH = 2048;

export const WEBHOOK_TOO_LONG = `Webhook URL is longer than ${MAX_URL_LENGTH} characters`;
export const WEBHOOK_NOT_HTTP = 'Webhook URL must be an http or https URL';
export const WEBHOOK_PRIVATE = 'Webhook URL points at a private address';
export const WEBHOOK_UNRESOLVED = 'Webhook URL host does not resolve';
export const PUSH_ENDPOINT_INVALID = 'Push subscription endpoint must be an https URL';
export const PUSH_ENDPOINT_PRIVATE = 'Push subscription endpoint points at a private address';

/** Why a visitor's URL is refused: the answer's words. */
export class TargetRefused extends Error {}

/** The host of a URL without IPv6 brackets or a trailing dot, lower case. */
const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Whether a URL's host is this machine or a private network without asking
 * DNS, as the dataset downloads judge it: a loopback name, or an address
 * literal outside public space.
 */
function localByName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicIp(host));
}

export interface TargetRules {
  /** WATCH_WEBHOOK_ALLOW_PRIVATE: the operator lets visitors' URLs reach private addresses. */
  allowPrivate: boolean;
  names: NameResolver;
}

/**
 * The visitor's URL, refused unless it is http(s), short enough and, unless
 * the operator allows private targets, a host whose every address is public
 * (a name is as private as the addresses it stands for). The connection is
 * checked again when it is made (publicOnlyLookup), since a name can resolve
 * otherwise later.
 */
export async function checkTarget(
  raw: string,
  rules: TargetRules,
  words: { notHttp: string; private: string },
  protocols: readonly string[],
): Promise<string> {
  if (raw.length > MAX_URL_LENGTH) throw new TargetRefused(WEBHOOK_TOO_LONG);
  if (!URL.canParse(raw)) throw new TargetRefused(words.notHttp);
  const url = new URL(raw);
  if (!protocols.includes(url.protocol) || url.hostname === '') throw new TargetRefused(words.notHttp);
  if (rules.allowPrivate) return url.href;
  const host = hostOf(url);
  if (localByName(host)) throw new TargetRefused(words.private);
  let addresses: LookupAddress[];
  try {
    addresses = await rules.names.all(host);
  } catch {
    throw new TargetRefused(WEBHOOK_UNRESOLVED);
  }
  if (addresses.some(({ address }) => !isPublicIp(address))) throw new TargetRefused(words.private);
  return url.href;
}

export const checkWebhook = (raw: string, rules: TargetRules) =>
  checkTarget(raw, rules, { notHttp: WEBHOOK_NOT_HTTP, private: WEBHOOK_PRIVATE }, ['http:', 'https:']);

/** A browser's push service is HTTPS; one the operator runs on their own network (allowed private) may be plain HTTP. */
export const checkPushEndpoint = (raw: string, rules: TargetRules) =>
  checkTarget(
    raw,
    rules,
    { notHttp: PUSH_ENDPOINT_INVALID, private: PUSH_ENDPOINT_PRIVATE },
    rules.allowPrivate ? ['http:', 'https:'] : ['https:'],
  );

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The connector's lookup for visitors' URLs: the resolver's, refusing a name
 * any of whose addresses is not public, so the address a socket is actually
 * opened to is checked, not only the name's answer when the URL was given.
 */
export function publicOnlyLookup(names: NameResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    names.all(hostname).then(
      (addresses) => {
        const inward = addresses.find(({ address }) => !isPublicIp(address));
        if (inward) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${inward.address}, not public`);
          err.code = 'EACCES';
          return callback(err, '');
        }
        names.lookup(hostname, options, callback as Parameters<NameResolver['lookup']>[2]);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
