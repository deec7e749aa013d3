import countries from 'i18n-iso-countries';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:country-names/';
const CODES = 'virtual:country-codes';
// ISO 3166-1 leaves these to its users (XK for Kosovo is one): no country of the standard.
const USER_ASSIGNED = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/;

/**
 * The current ISO 3166-1 countries' alpha-2 codes, from i18n-iso-countries'
 * maintained list: ICU names old and special regions too (SU, DD, CS, UN,
 * XA…), which a list of countries must not offer.
 */
export function isoCountryCodes(): string[] {
  return Object.keys(countries.getAlpha2Codes())
    .filter((code) => !USER_ASSIGNED.test(code))
    .sort();
}

/**
 * Speed device (docs/performance.md, "Country names at build time"): the
 * browser's first `Intl.DisplayNames` loads its region data, about 28 ms of a
 * phone's CPU in the task that first renders the page, all of it counted as
 * blocking time. The names come out of the same ICU data here, once, at build
 * time: `import names from 'virtual:country-names/<locale>'` gives every region
 * code ICU names (countries, EU, UN, ...) mapped to its name in that language.
 * To remove: look names up with `Intl.DisplayNames` in src/lib/country.ts again.
 */
export function countryNames(): Plugin {
  return {
    name: 'country-names',
    resolveId: (id) => (id.startsWith(PREFIX) || id === CODES ? `\0${id}` : undefined),
    load(id) {
      // `import codes from 'virtual:country-codes'`: the list above, for a page that offers countries to choose.
      if (id === `\0${CODES}`) return `export default ${JSON.stringify(isoCountryCodes())};`;
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const locale = id.slice(PREFIX.length + 1);
      // A Node built without full ICU would answer English or bare codes for every language.
      if (Intl.DisplayNames.supportedLocalesOf([locale]).length === 0) {
        this.error(`this Node has no ICU data for ${locale}; build the site with a Node that has full ICU`);
      }
      const display = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
      const names: Record<string, string> = {};
      for (let a = 65; a <= 90; a++) {
        for (let b = 65; b <= 90; b++) {
          const code = String.fromCharCode(a, b);
          const name = display.of(code);
          if (name) names[code] = name;
        }
      }
      return `export default ${JSON.stringify(names)};`;
    },
  };
}
