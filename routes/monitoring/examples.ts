import type { ExampleRequest, UpstreamAnswer } from '../example-request.js';

/** The telemetry DSN the example envelope names; the demo sets it as TELEMETRY_DSN_FRONTEND. */
export const EXAMPLE_TELEMETRY_DSN = 'https://d41d8cd98f00b204e9800998ecf8427e@o0.ingest.sentry.io/0';

const EVENT_ID = '9ec79c33ec9942ab8353589fcb2e04dc';
const envelope = [
  JSON.stringify({ event_id: EVENT_ID, dsn: EXAMPLE_TELEMETRY_DSN, sent_at: '2026-11-23T12:00:00.000Z' }),
  JSON.stringify({ type: 'event' }),
  JSON.stringify({ event_id: EVENT_ID, level: 'error', platform: 'javascript' }),
  '',
].join('\n');

export const examples: ExampleRequest[] = [
  {
    method: 'POST',
    url: '/api/monitoring',
    payload: envelope,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
  },
];

export const upstreamAnswers: UpstreamAnswer[] = [
  { method: 'POST', host: 'o0.ingest.sentry.io', path: '/api/0/envelope/', fixture: 'envelope-accepted.json' },
];
