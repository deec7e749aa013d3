// The build copies flag-icons' 4:3 flags to /flags/<code>.svg (web/site/flags-plugin.ts): one file per country,
// so a page fetches only the flags it shows and the bundle carries none.
const ISO_CODE = /^[A-Z]{2}$/;
// Codes ISO keeps for private use or that name no country: no flag to fetch.
const NO_FLAG = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/;

/** The URL of a country's flag, or null when the code names no country. */
export function flagUrl(code: string): string | null {
  const upper = code.toUpperCase();
  return ISO_CODE.test(upper) && !NO_FLAG.test(upper) ? `/flags/${upper.toLowerCase()}.svg` : null;
}
