import { after, before, beforeEach } from 'node:test';
import { FakeUpstream } from './fake-upstream.js';
import { FakeWhois } from './fake-whois.js';
import type { FastifyInstance } from 'fastify';
import { buildTestApi } from './app.js';
import { startAllFakes, type AllFakes } from './fakes.js';

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

/**
 * The demo's wiring for a whole test file: every fake and an app on their
 * settings, ready before the first test and closed after the last. Read
 * `app` and `fakes` inside tests (they are set once `before` has run).
 */
export function demoAppPerFile(): { app: FastifyInstance; fakes: AllFakes } {
  const demo = {} as { app: FastifyInstance; fakes: AllFakes };
  before(async () => {
    demo.fakes = await startAllFakes();
    ({ app: demo.app } = await buildTestApi(demo.fakes.env));
  });
  after(async () => {
    await demo.app.close();
    await demo.fakes.close();
  });
  return demo;
}
