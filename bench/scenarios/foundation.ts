import { exampleCase, type BenchCase } from '../scenario.js';
import { exampleRequest } from '../../test/support/example-requests.js';
import { ASSET_PATH } from '../site-fixture.js';

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const CONFIGS = exampleCase(exampleRequest('/api/configs'));

// Thresholds far above what a benchmark sends: the limiters do all their
// bookkeeping on every request but never delay or reject one.
const LIMITERS_ON = { SECURITY_RATE_LIMIT: '1000000000', SECURITY_DELAY_AFTER: '1000000000', LOG_HTTP: 'false' };

export const foundationCases: BenchCase[] = [
  {
    name: 'configs, API listener, limiters on, no request log',
    listener: 'api',
    ...CONFIGS,
    env: LIMITERS_ON,
    minRatio: 0.6,
  },
  // What METRICS=true costs: a request histogram observation per request (operations/README.md).
  {
    name: 'configs, API listener, limiters on, METRICS=true',
    listener: 'api',
    ...CONFIGS,
    env: { ...LIMITERS_ON, METRICS: 'true' },
  },
  {
    name: 'configs, API listener, LOG_HTTP json to a file',
    listener: 'api',
    ...CONFIGS,
    env: { ...LIMITERS_ON, LOG_HTTP: 'true', LOG_FORMAT: 'json' },
    minRatio: 0.4,
  },
  { name: 'configs through the front listener', listener: 'front', ...CONFIGS, env: LIMITERS_ON, minRatio: 0.3 },
  // The static cases against a bare server sending the same answer from memory (bench/site-fixture.ts).
  {
    name: 'static: index.html, front listener',
    listener: 'front',
    path: '/',
    env: LIMITERS_ON,
    sameBytes: true,
    minRatio: 0.8,
  },
  {
    name: 'static: hashed asset (200 KB), front listener',
    listener: 'front',
    path: ASSET_PATH,
    env: LIMITERS_ON,
    sameBytes: true,
    minRatio: 0.8,
  },
  {
    name: 'static: index.html, front listener, a browser’s Accept-Encoding (brotli)',
    listener: 'front',
    path: '/',
    headers: BROWSER,
    env: LIMITERS_ON,
    sameBytes: true,
  },
  {
    name: 'static: hashed asset (200 KB), front listener, a browser’s Accept-Encoding (brotli)',
    listener: 'front',
    path: ASSET_PATH,
    headers: BROWSER,
    env: LIMITERS_ON,
    sameBytes: true,
  },
];
