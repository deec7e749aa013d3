import { readFacts, type BrowserFacts, type NavigatorLike } from './facts';
import { HIGH_ENTROPY_HINTS, summarize, type ClientHints, type UaSummary } from './summary';

interface UserAgentData {
  getHighEntropyValues(hints: readonly string[]): Promise<ClientHints>;
}

/** Asks the Client Hints where the browser offers them; a refusal leaves the User-Agent's reading. */
async function clientHints(): Promise<ClientHints | null> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data) return null;
  try {
    return await data.getHighEntropyValues(HIGH_ENTROPY_HINTS);
  } catch {
    return null;
  }
}

/**
 * What this browser says about itself at once, from the User-Agent and
 * `navigator`, so the page shows its cards in its first render (nothing moves
 * when the Client Hints arrive): nothing of it is sent anywhere.
 */
export function readBrowserNow(): { summary: UaSummary; facts: BrowserFacts } {
  const facts = readFacts({
    navigator: navigator as Navigator & NavigatorLike,
    screen: window.screen,
    devicePixelRatio: window.devicePixelRatio,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  return { summary: summarize(navigator.userAgent), facts };
}

/** The summary refined with the Client Hints, or null where the browser offers none. */
export async function refineWithHints(): Promise<UaSummary | null> {
  const hints = await clientHints();
  return hints ? summarize(navigator.userAgent, hints) : null;
}
