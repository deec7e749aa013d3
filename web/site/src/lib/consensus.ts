/** What one source said about where an address is. */
export interface Placement {
  countryCode: string;
  city: string;
}

/**
 * How one source stands to the majority: it names the same place (`agrees`), only the same country (`country`:
 * no city, or one in another script that cannot be compared), another place (`differs`), or no country at all
 * (`none`).
 */
export type Standing = 'agrees' | 'country' | 'differs' | 'none';

export interface Consensus {
  /** Sources asked: every placement given. */
  total: number;
  /** How many name the majority's place: its country, and its city when the majority names one. */
  agree: number;
  /** How many name the majority's country but no city to compare with the majority's. */
  countryOnly: number;
  /** How many name no country. */
  noAnswer: number;
  countryCode: string;
  /** The majority's city among those in its country, `""` when none names one. */
  city: string;
  /** Per placement (same order as given). */
  standings: Standing[];
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
 * Where most sources place an address, and how each stands to that. A source without a country is no vote (unknown
 * is not a disagreement, as an empty DNS answer is not); one in the majority's country without a city to compare
 * disagrees with no one, but agrees only on the country: counting it as naming the city would claim more sources
 * for the city than named it.
 */
export function consensusOf(placements: Placement[]): Consensus | null {
  const countries = placements.map((p) => p.countryCode.toUpperCase());
  const voters = countries.filter(Boolean);
  if (!voters.length) return null;
  const countryCode = majority(voters);
  const named = placements.filter((p, i) => countries[i] === countryCode && p.city.trim());
  const script = majority(named.map((p) => scriptOf(p.city)));
  const city = majority(named.filter((p) => scriptOf(p.city) === script).map((p) => cityKey(p.city)));
  const standings = placements.map((p, i): Standing => {
    if (!countries[i]) return 'none';
    if (countries[i] !== countryCode) return 'differs';
    if (!city) return 'agrees';
    if (!p.city.trim() || scriptOf(p.city) !== script) return 'country';
    return cityKey(p.city) === city ? 'agrees' : 'differs';
  });
  const count = (standing: Standing) => standings.filter((s) => s === standing).length;
  const cityShown = placements.find((p, i) => standings[i] === 'agrees' && city && cityKey(p.city) === city)?.city;
  return {
    total: placements.length,
    agree: count('agrees'),
    countryOnly: count('country'),
    noAnswer: count('none'),
    countryCode,
    city: cityShown?.trim() ?? '',
    standings,
  };
}
