import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consensusOf } from '../../web/site/src/lib/consensus.js';

const at = (countryCode: string, city: string) => ({ countryCode, city });

test('the majority country and city, how many sources agree, and who differs', () => {
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
    countryOnly: 0,
    noAnswer: 0,
    countryCode: 'US',
    city: 'Mountain View',
    standings: ['agrees', 'agrees', 'agrees', 'differs', 'differs', 'agrees'],
  });
});

test('a source without a country is no vote and no disagreement; one in the country without a city agrees on the country only', () => {
  const found = consensusOf([at('US', 'Mountain View'), at('', ''), at('us', ''), at('US', 'Mountain View')]);
  assert.equal(found?.total, 4);
  assert.equal(found?.agree, 2);
  assert.equal(found?.countryOnly, 1);
  assert.equal(found?.noAnswer, 1);
  assert.equal(found?.countryCode, 'US');
  assert.deepEqual(found?.standings, ['agrees', 'none', 'country', 'agrees']);
});

test('seven sources naming Brisbane four times: 4 agree, not 6; the two without a city and the one elsewhere are told apart', () => {
  const found = consensusOf([
    at('AU', 'Brisbane'),
    at('AU', ''),
    at('AU', 'Brisbane'),
    at('AU', 'Sydney'),
    at('AU', 'Brisbane'),
    at('AU', ''),
    at('AU', 'Brisbane'),
  ]);
  assert.equal(found?.city, 'Brisbane');
  assert.equal(found?.total, 7);
  assert.equal(found?.agree, 4);
  assert.equal(found?.countryOnly, 2);
  assert.equal(found?.noAnswer, 0);
  assert.deepEqual(found?.standings, ['agrees', 'country', 'agrees', 'differs', 'agrees', 'country', 'agrees']);
});

test('no city named in the majority country: the line is the country alone, and every source in it agrees', () => {
  const found = consensusOf([at('DE', ''), at('DE', ''), at('FR', 'Paris')]);
  assert.equal(found?.city, '');
  assert.equal(found?.agree, 2);
  assert.equal(found?.countryOnly, 0);
  assert.deepEqual(found?.standings, ['agrees', 'agrees', 'differs']);
});

test("a tie goes to the source listed first, so the page's card order decides", () => {
  assert.equal(consensusOf([at('NL', 'Amsterdam'), at('DE', 'Berlin')])?.countryCode, 'NL');
});

test('no source named a country: no consensus', () => {
  assert.equal(consensusOf([at('', 'Somewhere'), at('', '')]), null);
  assert.equal(consensusOf([]), null);
});

test('city names in another script neither outvote nor contradict: 山景城 beside Mountain View agrees on the country only', () => {
  const found = consensusOf([
    at('US', '山景城'),
    at('US', 'Mountain View'),
    at('US', 'Mountain View'),
    at('US', 'Ashburn'),
    at('US', 'São Paulo'),
  ]);
  assert.equal(found?.city, 'Mountain View');
  assert.deepEqual(found?.standings, ['country', 'agrees', 'agrees', 'differs', 'differs']);
  assert.equal(found?.agree, 2);
  assert.equal(found?.countryOnly, 1);
  assert.equal(consensusOf([at('US', '山景城'), at('US', '山景城'), at('US', 'Mountain View')])?.city, '山景城');
});
