import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countryNames, isoCountryCodes } from '../../web/site/country-names-plugin.js';
import { countryChoices } from '../../web/site/src/features/persona/persona.js';

type Load = (this: { error: (message: string) => never }, id: string) => string | undefined;

const plugin = countryNames();
const load = plugin.load as Load;
const context = {
  error: (message: string): never => {
    throw new Error(message);
  },
};

/** What the site's build makes of a virtual module. */
function built<T>(id: string): T {
  const code = load.call(context, `\0${id}`) ?? '';
  assert.ok(code.startsWith('export default '));
  return JSON.parse(code.slice('export default '.length, -1)) as T;
}

const codes = built<string[]>('virtual:country-codes');

test('the persona page offers the current ISO 3166-1 countries, from the maintained list', () => {
  assert.deepEqual(codes, isoCountryCodes());
  assert.equal(codes.length, 249, 'ISO 3166-1 has 249 current codes');
  for (const code of ['RU', 'DE', 'RS', 'ME', 'CN', 'US', 'SS', 'CW']) assert.ok(codes.includes(code), code);
  // Withdrawn codes (the Soviet Union, East Germany, Serbia and Montenegro, Yugoslavia, the Netherlands Antilles),
  // ICU's special regions and the user-assigned codes.
  for (const code of ['SU', 'DD', 'CS', 'YU', 'AN', 'EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'XK', 'ZZ', 'AC', 'IC']) {
    assert.ok(!codes.includes(code), code);
  }
});

for (const locale of ['en', 'fr', 'ru', 'zh-CN']) {
  test(`in ${locale}, one name per country, none twice, and no region that is not a country`, () => {
    const names = built<Record<string, string>>(`virtual:country-names/${locale}`);
    const choices = countryChoices(codes, (code) => names[code] ?? code, locale);
    assert.equal(choices.length, codes.length);
    const seen = new Map<string, string>();
    for (const { code, name } of choices) {
      assert.notEqual(name, code, `${code} has a name in ${locale}`);
      assert.equal(seen.get(name), undefined, `${name} is the name of ${seen.get(name)} and ${code}`);
      seen.set(name, code);
    }
    // The names the old list showed for regions that are no country.
    for (const region of ['UN', 'ZZ', 'XA', 'XB', 'EU', 'QO']) {
      assert.ok(!seen.has(names[region] ?? ''), `${names[region]} is offered in ${locale}`);
    }
    const sorted = [...choices].sort((a, b) => a.name.localeCompare(b.name, locale));
    assert.deepEqual(choices, sorted, 'in the order of the language');
  });
}
