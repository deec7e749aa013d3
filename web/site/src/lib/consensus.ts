/** What one source said about where an address is. */
export interface Placement {
  countryCode: string;
  city: string;
}

export interface Consensus {
  /** Sources that named a country. */
  total: number;
  /** Of those, how many gave the majority's country (and its city, when the majority names one). */
  agree: number;
  countryCode: string;
  /** The majority's city among those in its country, `""` when none names one. */
  city: string;
  /** Per placement (same order as given): whether it disagrees with the majority. */
  differs: boolean[];
}

const cityKey = (city: string) => city.trim().toLocaleLowerCase('en');

// Some sources name cities in the visitor's language and others only in English ("山景城", "Mountain View"): two
// names in different scripts cannot be compared, so neither outvotes nor contradicts the other.
const LATIN = /^[\p{Script=Latin}\p{Script=Common}\p{Mark}]*$/u;
const scriptOf = (city: string) => (LATIN.test(city.trim()) ? 'latin' : 'other');

/** The most frequent key; a tie goes to the one seen first, so the page's card order decides. */
function majority(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [key, count] of counts) {
    if (count > bestCount) [best, bestCount] = [key, count];
  }
  return best;
}

/**
 * Where most sources place an address, and which disagree. A source without a country is no vote (unknown is not
 * a disagreement, as an empty DNS answer is not); a source in the majority's country without a city disagrees
 * with no one either.
 */
export function consensusOf(placements: Placement[]): Consensus | null {
  const countries = placements.map((p) => p.countryCode.toUpperCase());
  const voters = countries.filter(Boolean);
  if (!voters.length) return null;
  const countryCode = majority(voters);
  const named = placements.filter((p, i) => countries[i] === countryCode && p.city.trim());
  const script = majority(named.map((p) => scriptOf(p.city)));
  const city = majority(named.filter((p) => scriptOf(p.city) === script).map((p) => cityKey(p.city)));
  const differs = placements.map((p, i) => {
    if (!countries[i]) return false;
    if (countries[i] !== countryCode) return true;
    return Boolean(city && p.city.trim() && scriptOf(p.city) === script && cityKey(p.city) !== city);
  });
  const cityShown = placements.find((p, i) => countries[i] === countryCode && city && cityKey(p.city) === city)?.city;
  return {
    total: voters.length,
    agree: voters.length - differs.filter(Boolean).length,
    countryCode,
    city: cityShown?.trim() ?? '',
    differs,
  };
}
