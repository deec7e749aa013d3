import type { InjectOptions } from 'fastify';
import { EXAMPLE_REPORT, FAKE_TELEMETRY_DSN } from './fake-routes/platform.js';

const IP = 'ip=8.8.8.8';
const envelope = (dsn: string) =>
  [
    JSON.stringify({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc', dsn, sent_at: '2026-11-23T12:00:00.000Z' }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc', level: 'error', platform: 'javascript' }),
    '',
  ].join('\n');

/** One request per route of the spec, and per route of ours, each as a page would send it; the telemetry envelope names `dsn`. */
export function exampleRequests(dsn = FAKE_TELEMETRY_DSN): Array<InjectOptions & { url: string }> {
  return [
    { url: '/api/configs' },
    { url: '/api/repo-stars' },
    { url: `/api/geo-keyed-a?${IP}` },
    { url: `/api/geo-free-a?${IP}&lang=de` },
    { url: `/api/geo-free-b?${IP}` },
    { url: `/api/geo-keyed-b?${IP}` },
    { url: `/api/geo-keyed-c?${IP}` },
    { url: `/api/geo-local?${IP}&lang=ja` },
    { url: `/api/geo-private?${IP}` },
    { url: '/api/whois?q=example.com' },
    { url: '/api/dnsresolver?hostname=example.com&type=A' },
    { url: '/api/asn-connectivity?asn=15169' },
    { url: '/api/asn-history?prefix=8.8.8.0/24' },
    { url: '/api/asn-radar?view=asn&asn=15169' },
    { url: '/api/asn-radar?view=outages' },
    { url: '/api/asn-radar?view=activity&country=US' },
    { url: '/api/censorship-blocking?domain=example.com' },
    { url: '/api/probe-countries' },
    { url: '/api/macchecker?mac=00:1A:2B:3C:4D:5E' },
    { url: '/api/map?latitude=37.4&longitude=-122.08&language=en' },
    { url: '/api/dnsleaktest/session/0123456789abcdef0123456789abcdef' },
    { url: '/api/invisibility?id=abcdefghijklmnopqrstuvwxyz01' },
    { url: '/api/persona/evaluate', method: 'POST', payload: { persona: { country: 'DE' } } },
    { url: '/api/getuserinfo' },
    { url: '/api/updateuserachievement', method: 'PUT', payload: { achievement: 'DnsLeakChecked' } },
    { url: '/api/service-status' },
    { url: '/api/client-ip' },
    { url: '/api/report', method: 'POST', payload: { report: EXAMPLE_REPORT, ttlDays: 1 } },
    { url: '/api/monitoring', method: 'POST', payload: envelope(dsn), headers: { 'content-type': 'text/plain;charset=UTF-8' } },
  ];
}
