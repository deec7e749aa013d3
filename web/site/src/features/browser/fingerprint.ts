import { graphicsOf, type Graphics } from './graphics';

/** What FingerprintJS makes of this browser, computed in the page and never sent. */
export interface Fingerprint {
  /** Its visitor identifier: a hash of every trait it read. */
  id: string;
  /** Its own estimate (0–1) that the identifier tells this browser apart from others. */
  confidence: number;
  /** How many of the browser's traits went into the identifier. */
  traits: number;
  graphics: Graphics;
}

/**
 * Loads FingerprintJS with this page only (its own chunk) and reads the
 * browser. Its `monitoring` is off: on, the library reports each load to its
 * maker's server, and this page sends nothing anywhere.
 */
export async function readFingerprint(): Promise<Fingerprint> {
  const { load } = await import('@fingerprintjs/fingerprintjs');
  const agent = await load({ monitoring: false });
  const result = await agent.get();
  return {
    id: result.visitorId,
    confidence: result.confidence.score,
    traits: Object.keys(result.components).length,
    graphics: graphicsOf(result.components.webGlBasics),
  };
}
