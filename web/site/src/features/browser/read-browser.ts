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

/** Everything this browser says about itself, read in the page: nothing of it is sent anywhere. */
export async function readBrowser(): Promise<{ summary: UaSummary; facts: BrowserFacts; hints: boolean }> {
  const hints = await clientHints();
  const facts = readFacts({
    navigator: navigator as Navigator & NavigatorLike,
    screen: window.screen,
    devicePixelRatio: window.devicePixelRatio,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  return { summary: summarize(navigator.userAgent, hints), facts, hints: hints !== null };
}
