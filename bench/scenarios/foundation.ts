import type { BenchCase } from '../scenario.js';

// Thresholds far above what a benchmark sends: the limiters do all their
// bookkeeping on every request but never delay or reject one.
const LIMITERS_ON = { SECURITY_RATE_LIMIT: '1000000000', SECURITY_DELAY_AFTER: '1000000000', LOG_HTTP: 'false' };

export const foundationCases: BenchCase[] = [
  { name: 'configs, API listener, limiters on, no request log', listener: 'api', path: '/api/configs', env: LIMITERS_ON, minRatio: 0.6 },
  {
    name: 'configs, API listener, LOG_HTTP json to a file',
    listener: 'api',
    path: '/api/configs',
    env: { ...LIMITERS_ON, LOG_HTTP: 'true', LOG_FORMAT: 'json' },
    minRatio: 0.4,
  },
  { name: 'configs through the front listener', listener: 'front', path: '/api/configs', env: LIMITERS_ON, minRatio: 0.3 },
  { name: 'index.html, front listener', listener: 'front', path: '/', env: LIMITERS_ON },
  { name: 'hashed asset, front listener', listener: 'front', path: '/assets/index-AbCd1234.js', env: LIMITERS_ON },
];
