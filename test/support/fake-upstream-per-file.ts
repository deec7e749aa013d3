import { after, before, beforeEach } from 'node:test';
import { FakeUpstream } from './fake-upstream.js';
import { FakeWhois } from './fake-whois.js';

/**
 * One fake upstream server for a whole test file: listening before its first
 * test, emptied before each test and given `routes` again, closed after the last.
 */
export function fakeUpstreamPerFile(routes?: (fake: FakeUpstream) => void): FakeUpstream {
  const fake = new FakeUpstream();
  before(() => fake.listen());
  beforeEach(() => {
    fake.reset();
    routes?.(fake);
  });
  after(() => fake.close());
  return fake;
}

/** One fake port-43 WHOIS server for a whole test file, emptied before each test, like fakeUpstreamPerFile(). */
export function fakeWhoisPerFile(): FakeWhois {
  const whois = new FakeWhois();
  before(() => whois.listen());
  beforeEach(() => whois.reset());
  after(() => whois.close());
  return whois;
}
