// The countries a Globalping test runs from: the picker's sections, what is
// suggested, and the soft caps (a page refuses to run past them, but the
// picker never refuses a checkbox).

/** Suggested and chosen in advance for ping and MTR: a spread over every continent. */
// prettier-ignore
export const WORLD_SUGGESTIONS = [
  'HK', 'TW', 'CN', 'JP', 'KR', 'MY', 'ID', 'SG', 'IN', 'SA', 'GB', 'DE', 'PL', 'FI',
  'FR', 'TR', 'UA', 'RU', 'ZA', 'NG', 'EG', 'CA', 'US', 'MX', 'AR', 'BR', 'NZ', 'AU',
];
export const WORLD_CAP = 30;

/** The censorship page's: countries known for blocking, then open networks to compare with. */
export const CENSORING_COUNTRIES = ['CN', 'RU', 'TR', 'SA', 'IR'];
export const OPEN_COUNTRIES = ['US', 'DE', 'JP', 'SG'];
export const CENSORSHIP_CAP = 15;

export const CONTINENTS = ['asia', 'europe', 'africa', 'americas', 'oceania'] as const;

export interface PickerSection {
  /** `own`, `flagged`, `censoring`, `open`, or a continent's key. */
  key: string;
  countries: string[];
  /** Continents start folded: they are long, and the leading sections hold what most visitors choose. */
  folded: boolean;
}

export interface Inventory {
  countries: string[];
  continents: Array<{ key: string; countries: string[] }>;
}

/**
 * The picker's sections: the leading ones the page names (empty ones left
 * out), then one per continent of the probe inventory (`/api/probe-countries`).
 */
export function pickerSections(
  leading: ReadonlyArray<{ key: string; countries: readonly string[] }>,
  inventory: Inventory | null,
): PickerSection[] {
  const continents = (inventory?.continents ?? []).filter((c) => (CONTINENTS as readonly string[]).includes(c.key));
  return [
    ...leading.filter((s) => s.countries.length).map((s) => ({ ...s, countries: [...s.countries], folded: false })),
    ...continents.map((c) => ({ key: c.key, countries: [...c.countries], folded: true })),
  ];
}

/**
 * Whether a country can be chosen: one without probes cannot, unless already
 * chosen; while the inventory is unknown (loading, failed) every one can.
 */
export function selectable(country: string, inventory: Inventory | null, chosen: ReadonlySet<string>): boolean {
  return !inventory || chosen.has(country) || inventory.countries.includes(country);
}

/** What a page chooses in advance: its suggestions that have probes (all of them while that is unknown), at most `cap`. */
export function preselect(suggested: readonly string[], inventory: Inventory | null, cap: number): string[] {
  const unique = [...new Set(suggested)];
  return (inventory ? unique.filter((c) => inventory.countries.includes(c)) : unique).slice(0, cap);
}

/** "Select all" of a section adds only the countries with probes. */
export function withAll(section: readonly string[], inventory: Inventory | null, chosen: readonly string[]): string[] {
  const added = section.filter((c) => !chosen.includes(c) && (!inventory || inventory.countries.includes(c)));
  return [...chosen, ...added];
}
