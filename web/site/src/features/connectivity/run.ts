import { browserClock } from '../../lib/fetch-within';
import { browserStore } from '../../lib/kept';
import { connectivitySection, probeAll, type ConnectivitySection } from './probe';
import type { ProbeResult } from './result';
import { loadTargets } from './saved-targets';
import type { Target } from './targets';

/**
 * The connectivity test without its page (the run-all page's card): the visitor's
 * own list of sites, each probed in turn and handed over as it lands, then the
 * report's section.
 */
export async function runConnectivity(options: {
  signal: AbortSignal;
  onResult: (target: Target, result: ProbeResult) => void;
}): Promise<ConnectivitySection> {
  const targets = loadTargets(browserStore());
  const results = new Map<string, ProbeResult>();
  await probeAll(
    targets,
    (target, result) => {
      results.set(target.id, result);
      if (!options.signal.aborted) options.onResult(target, result);
    },
    browserClock(),
    options.signal,
  );
  return connectivitySection(targets, results);
}
