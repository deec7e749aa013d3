import type { Detection } from './job.js';

type Translate = (key: string, values: Record<string, unknown>) => string;

/** What the companion measured for the signals that carry numbers or names, in the page's words. */
export function detailsOf(detection: Detection, t: Translate): Partial<Record<string, string>> {
  const out: Partial<Record<string, string>> = {};
  const tcp = detection.tcp;
  if (tcp?.clientos || tcp?.ipos) out.tcp = t('invisibility.detail.tcp', { browser: tcp.clientos, address: tcp.ipos });
  const ping = detection.latency_vs_ping;
  if (ping) out.latencyVSPing = t('invisibility.detail.ping', { tcp: ping.tcpTime, ping: ping.pingTime });
  const ws = detection.latency_vs_ws;
  if (ws) out.latencyVSWS = t('invisibility.detail.ws', { tcp: ws.tcpTime, ws: ws.wsTime });
  const zone = detection.timezone;
  if (zone?.clienttimezone || zone?.iptimezone) {
    out.timezone = t('invisibility.detail.zone', { browser: zone.clienttimezone, address: zone.iptimezone });
  }
  const webrtc = detection.webrtc;
  if (Array.isArray(webrtc?.allips) && webrtc.allips.length > 0) {
    out.webrtc = t('invisibility.detail.webrtc', { ips: webrtc.allips.join(', ') });
  }
  return out;
}
