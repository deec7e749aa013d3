import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consensusOf } from '../../web/site/src/lib/consensus.js';

const at = (countryCode: string, city: string) => ({ countryCode, city });

test('the majority country and city, how many of the sources that named a country agree, and who differs', () => {
  const found = consensusOf([
    at('US', 'Mountain View'),
    at('US', 'mountain view '),
    at('US', 'Mountain View'),
    at('US', 'Ashburn'),
    at('IE', 'Dublin'),
    at('US', 'Mountain View'),
  ]);
  assert.deepEqual(found, {
    total: 6,
    agree: 4,
    countryCode: 'US',
    city: 'Mountain View',
    differs: [false, false, false, true, true, false],
  });
});

test('a source without a country is no vote and no disagreement; one in the country without a city agrees', () => {
  const found = consensusOf([at('US', 'Mountain View'), at('', ''), at('us', ''), at('US', 'Mountain View')]);
  assert.equal(found?.total, 3);
  assert.equal(found?.agree, 3);
  assert.equal(found?.countryCode, 'US');
  assert.deepEqual(found?.differs, [false, false, false, false]);
});

test('no city named in the majority country: the line is the country alone', () => {
  const found = consensusOf([at('DE', ''), at('DE', ''), at('FR', 'Paris')]);
  assert.equal(found?.city, '');
  assert.equal(found?.agree, 2);
  assert.deepEqual(found?.differs, [false, false, true]);
});

test("a tie goes to the source listed first, so the page's card order decides", () => {
  assert.equal(consensusOf([at('NL', 'Amsterdam'), at('DE', 'Berlin')])?.countryCode, 'NL');
});

test('no source named a country: no consensus', () => {
  assert.equal(consensusOf([at('', 'Somewhere'), at('', '')]), null);
  assert.equal(consensusOf([]), null);
});

test('city names in another script neither outvote nor contradict: 山景城 beside Mountain View is no disagreement', () => {
  const found = consensusOf([
    at('US', '山景城'),
    at('US', 'Mountain View'),
    at('US', 'Mountain View'),
    at('US', 'Ashburn'),
    at('US', 'São Paulo'),
  ]);
  assert.equal(found?.city, 'Mountain View');
  assert.deepEqual(found?.differs, [false, false, false, true, true]);
  assert.equal(found?.agree, 3);
  assert.equal(consensusOf([at('US', '山景城'), at('US', '山景城'), at('US', 'Mountain View')])?.city, '山景城');
});
