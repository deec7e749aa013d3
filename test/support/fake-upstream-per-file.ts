import { after, before, beforeEach } from 'node:test';
import { FakeUpstream } from './fake-upstream.js';

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
