import { browserClock } from '../../lib/fetch-within';
import { browserStore } from '../../lib/kept';
import { connectivitySection, probeAll, type ConnectivitySection } from './probe';
import type { ProbeResult } from './result';
import { loadSiteSettings } from '../../api/site-settings';
import { DEFAULT_SITES, firstSites } from './lists';
import { loadTargets } from './saved-targets';
import type { Target } from './targets';

/**
 * The connectivity test without its page (the run-all page's card): the visitor's
 * own list of sites (the operator's first list on a first visit), each probed in turn and handed over as it lands, then the
 * report's section.
 */
export async function runConnectivity(options: {
  signal: AbortSignal;
  onResult: (target: Target, result: ProbeResult) => void;
}): Promise<ConnectivitySection> {
  const first = await loadSiteSettings().then(
    (settings) => firstSites(settings.connectivity.targets),
    () => DEFAULT_SITES,
  );
  const targets = loadTargets(browserStore(), first);
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
