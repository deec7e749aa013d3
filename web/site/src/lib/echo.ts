import { isIpv4, isIpv6 } from './ip.js';

export type Family = 'IPv4' | 'IPv6';

/** How a detector's answer names the address. */
export type Reader = 'trace' | 'json-ip' | 'json-data-ip' | 'json-remote-addr';

/**
 * A service that answers the address a request came from (an "echo"). Each
 * is asked from the visitor's browser, so each sees the path to its own
 * servers: one that sees another address is reached another way (split
 * routing, a proxy for some destinations).
 */
export interface Detector {
  id: string;
  name: string;
  /** The family the answer must be in; null takes either (the browser's own choice). */
  family: Family | null;
  /** Tried in order; the first usable answer wins. */
  urls: Array<{ url: string; read: Reader }>;
}

/** This service's own answer of the caller's address (on any of its origins). */
export const CLIENT_IP = '/api/client-ip';

/** The `ip=` line of a Cloudflare trace (`key=value` lines). */
function traceIp(text: string): unknown {
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && line.slice(0, at).trim() === 'ip') return line.slice(at + 1).trim();
  }
  return undefined;
}

function jsonField(text: string, path: string[]): unknown {
  try {
    return path.reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      JSON.parse(text),
    );
  } catch {
    return undefined;
  }
}

/** The address an answer names, if it names one of the wanted family. */
export function readAddress(text: string, read: Reader, family: Family | null): string | null {
  const value =
    read === 'trace'
      ? traceIp(text)
      : jsonField(
          text,
          read === 'json-data-ip' ? ['data', 'ip'] : read === 'json-remote-addr' ? ['remote_addr'] : ['ip'],
        );
  if (typeof value !== 'string') return null;
  if (family === 'IPv4') return isIpv4(value) ? value : null;
  if (family === 'IPv6') return isIpv6(value) ? value : null;
  return isIpv4(value) || isIpv6(value) ? value : null;
}

export type Outcome =
  { state: 'done'; ip: string; family: Family } | { state: 'error'; reason: 'timeout' | 'failed' | 'unusable' };

export const DETECTOR_TIMEOUT_MS = 5000;

/**
 * Asks a detector: each URL in turn, each within `timeoutMs`; the first
 * answer naming an address of the detector's family wins. The reason kept
 * is the last URL's.
 */
export async function detect(
  detector: Detector,
  fetcher: typeof fetch,
  signal: AbortSignal,
  timeoutMs = DETECTOR_TIMEOUT_MS,
): Promise<Outcome> {
  let outcome: Outcome = { state: 'error', reason: 'failed' };
  for (const { url, read } of detector.urls) {
    if (signal.aborted) break;
    const step = new AbortController();
    const stop = () => step.abort();
    signal.addEventListener('abort', stop);
    const timer = setTimeout(stop, timeoutMs);
    try {
      const response = await fetcher(url, {
        signal: step.signal,
        cache: 'no-store',
        headers: { accept: 'application/json, text/plain' },
      });
      const ip = response.ok ? readAddress(await response.text(), read, detector.family) : null;
      if (ip) return { state: 'done', ip, family: isIpv4(ip) ? 'IPv4' : 'IPv6' };
      outcome = { state: 'error', reason: response.ok ? 'unusable' : 'failed' };
    } catch {
      outcome = { state: 'error', reason: step.signal.aborted && !signal.aborted ? 'timeout' : 'failed' };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }
  return outcome;
}
