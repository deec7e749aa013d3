import Negotiator from 'negotiator';
import { memoized } from '../lib/memory-cache.js';

/** The codings a build folder can hold a file in: brotli and gzip variants beside the file itself. */
export type Coding = 'br' | 'gzip' | 'identity';

// Smallest first: where the browser rates two codings equally, the smaller answer wins.
const BY_SIZE: readonly Coding[] = ['br', 'gzip', 'identity'];

// @types/negotiator (0.6) predates negotiator 1.x's `preferred` option, which breaks ties between equal q-values.
type EncodingsWithPreference = (
  this: Negotiator,
  available: readonly Coding[],
  options: { preferred: readonly Coding[] },
) => Coding[];
const encodings = Negotiator.prototype.encodings as unknown as EncodingsWithPreference;

/**
 * The codings an Accept-Encoding value accepts, best first, by its q-values
 * (an explicit `q=0` refuses a coding, `*` stands for the codings not named,
 * identity is acceptable unless refused). Browsers send a handful of
 * distinct values, so each is parsed once.
 */
export const acceptedCodings = memoized(
  (header: string): readonly Coding[] =>
    encodings.call(new Negotiator({ headers: { 'accept-encoding': header } }), BY_SIZE, { preferred: BY_SIZE }),
  1000,
);
