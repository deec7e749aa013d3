/**
 * Which form of a `a | b | c` text a count picks, for the languages whose rule
 * is not vue-i18n's default (one form for 1, another for the rest).
 * The counts the site shows are whole numbers; CLDR's rules for them.
 */

// A text with fewer forms than the rule names (a message with a single form) takes its last one.
const within = (index: number, forms: number): number => Math.min(index, forms - 1);

/** French: 0 and 1 take the singular ("0 pays choisi"), from 2 on the plural. */
export function frenchPlural(choice: number, forms: number): number {
  return within(Math.abs(choice) < 2 ? 0 : 1, forms);
}

/** Russian: one (1, 21, 101…), few (2–4, 22–24…), many (0, 5–20, 25…, 111…): "1 страна | 3 страны | 5 стран". */
export function russianPlural(choice: number, forms: number): number {
  const n = Math.abs(Math.trunc(choice));
  const last = n % 10;
  const lastTwo = n % 100;
  if (last === 1 && lastTwo !== 11) return within(0, forms);
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return within(1, forms);
  return within(2, forms);
}
