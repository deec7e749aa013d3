import type { BenchCase } from '../scenario.js';
import { FakeDns } from '../../test/support/fake-dns.js';
import { DOH_ENDPOINTS, dohAnswer } from '../../test/support/fake-routes/dnsresolver.js';

// The plain-DNS resolvers all reach this one loopback server through
// DNS_OVERRIDE_SERVER; its port is fixed because the server process's
// settings are fixed before prepare() runs.
const DNS_PORT = 25353;
const SLOW_MS = 50;

let started: Promise<FakeDns> | undefined;

function loopbackDns(): Promise<FakeDns> {
  started ??= FakeDns.start(0, DNS_PORT).then((dns) =>
    dns
      .on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 300, data: '93.184.215.14' }] })
      .on('slow.example.com', 'A', {
        delayMs: SLOW_MS,
        answers: [{ type: 'A', name: 'slow.example.com', ttl: 300, data: '93.184.215.15' }],
      })
      .unref(),
  );
  return started;
}

const env = { DNS_OVERRIDE_SERVER: `127.0.0.1:${DNS_PORT}` };

/**
 * /api/dnsresolver against loopback resolvers: every one of the data file's
 * resolvers answering at once, then all of them taking 50 ms, where the
 * answer should take about the slowest resolver's time (bench/dns-latency.ts
 * measures that bound directly).
 */
export const dnsresolverCases: BenchCase[] = [
  {
    name: 'dnsresolver A, all resolvers on loopback',
    listener: 'api',
    path: '/api/dnsresolver?hostname=example.com&type=A',
    env,
    prepare: async () => void (await loopbackDns()),
    fake: (fake) => {
      for (const [host, path] of DOH_ENDPOINTS) fake.on('GET', host, path, dohAnswer());
    },
  },
  {
    name: `dnsresolver A, every resolver ${SLOW_MS} ms slow`,
    listener: 'api',
    path: '/api/dnsresolver?hostname=slow.example.com&type=A',
    env,
    prepare: async () => void (await loopbackDns()),
    fake: (fake) => {
      const slow = dohAnswer(SLOW_MS);
      const fast = dohAnswer();
      for (const [host, path] of DOH_ENDPOINTS) {
        fake.on('GET', host, path, (req, res) =>
          (req.query.get('name') === 'slow.example.com' ? slow : fast)(req, res),
        );
      }
    },
  },
];
