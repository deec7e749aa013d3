import { getJson } from '../../api/client';
import type { ClientIp } from '../../api/types';
import type { Connection } from './figures';
import type { Target } from './plan';
import { startRun, type RunEvents } from './run';
import { traceFacts } from './trace';

const TRACE_URL = 'https://speed.cloudflare.com/cdn-cgi/trace';
const TRACE_TIMEOUT_MS = 5000;

/** Where the bytes go between: the visitor's address as the target sees it, and the target. */
async function whereFrom(which: Target): Promise<Connection> {
  try {
    if (which === 'server') return { ip: (await getJson<ClientIp>('/api/client-ip')).ip };
    const response = await fetch(TRACE_URL, { signal: AbortSignal.timeout(TRACE_TIMEOUT_MS), cache: 'no-store' });
    if (!response.ok) return {};
    const facts = traceFacts(await response.text());
    return { ip: facts.ip, colo: facts.colo };
  } catch {
    // The route line is a courtesy: the measurement stands without it.
    return {};
  }
}

/**
 * A speed test against `target`, for its page and the run-all page alike: the
 * route line asked beside it, the engine loaded only now (it is the page's
 * largest part), then the run. `stop()` ends it, before the engine has even loaded.
 */
export function measure(
  target: Target,
  sizes: { down: number; up: number },
  events: RunEvents & { connection(found: Connection): void },
): { stop(): void } {
  let stopped = false;
  let run: { stop(): void } | null = null;
  void whereFrom(target).then((found) => stopped || events.connection(found));
  void import('@cloudflare/speedtest').then(({ default: SpeedTest }) => {
    if (!stopped) run = startRun((config) => new SpeedTest(config), target, sizes, events);
  });
  return {
    stop() {
      stopped = true;
      run?.stop();
    },
  };
}
