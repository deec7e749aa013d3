import type { SectionBody } from '../../lib/report-sections.js';
import { isIp } from '../../lib/ip.js';
import type { Detection } from './job.js';

/** The reference's signals in its order, each read where the companion's answer puts it. */
export const SIGNALS = [
  ['headers', (d: Detection) => d.headers.proxy],
  ['datacenter', (d: Detection) => d.datacenter.is_datacenter],
  ['blocklist.proxy', (d: Detection) => d.blocklist.proxy],
  ['blocklist.vpn', (d: Detection) => d.blocklist.vpn],
  ['blocklist.vpnExitNode', (d: Detection) => d.blocklist.vpnExitNode],
  ['tor', (d: Detection) => d.tor_detection.proxy || d.tor_detection.vpn],
  ['tcp', (d: Detection) => d.tcp.proxy],
  ['latencyVSPing', (d: Detection) => d.latency_vs_ping.vpn],
  ['latencyVSWS', (d: Detection) => d.latency_vs_ws.proxy],
  ['timezone', (d: Detection) => d.timezone.proxy || d.timezone.vpn],
  ['net', (d: Detection) => d.net.proxy],
  ['webrtc', (d: Detection) => d.webrtc.proxy],
  ['flow', (d: Detection) => d.flow.proxy],
  ['highlatency', (d: Detection) => d.highlatency.proxy],
] as const;

export type SignalKey = (typeof SIGNALS)[number][0];
export interface Flag {
  key: string;
  flagged: boolean;
}

/** Each signal as flagged or not; a signal the answer lacks or mis-shapes counts as not flagged. */
export function flagsOf(detection: Detection): Flag[] {
  return SIGNALS.map(([key, read]) => {
    try {
      return { key, flagged: read(detection) === true };
    } catch {
      return { key, flagged: false };
    }
  });
}

const score = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.floor(Math.min(100, Math.max(0, value))) : 0;

/** green below 30, amber below 70, else red: the reference's bands for a score. */
export type Band = 'low' | 'medium' | 'high';
export const bandOf = (value: number): Band => (value < 30 ? 'low' : value < 70 ? 'medium' : 'high');

/** The report's `invisibility` section: the address, the floored scores, every signal's flag. */
export function invisibilitySection(detection: Detection): SectionBody<'invisibility'> {
  return {
    ip: typeof detection.ip === 'string' && isIp(detection.ip) ? detection.ip : undefined,
    scores: { proxy: score(detection.score?.proxy), vpn: score(detection.score?.vpn) },
    flags: flagsOf(detection),
  };
}
