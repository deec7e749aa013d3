import type { BenchCase } from '../scenario.js';
import { BENCH_IP, writeBenchDatabases } from './geo.js';

const CURL = { 'user-agent': 'curl/8.5.0', accept: '*/*' };
// Thresholds far above what a benchmark sends: the global limiter counts every request but never rejects one.
const LIMITER_ON = { SECURITY_RATE_LIMIT: '1000000000', GEODB_AUTO_UPDATE: 'false' };
// Defaults (no limiter), with the databases left as written.
const DEFAULTS = { GEODB_AUTO_UPDATE: 'false' };

/**
 * The command-line face (web/command-line/README.md) against a bare node:http
 * server sending the very same answer: `curl <site>` and /json on the
 * generated 500,000-network databases, with the settings' defaults (gated,
 * as the issue asks) and with the global limiter counting (for the record).
 */
export const commandLineCases: BenchCase[] = [
  {
    name: 'command-line: curl <site> (plain address), front listener',
    listener: 'front',
    path: '/',
    headers: CURL,
    env: DEFAULTS,
    prepare: writeBenchDatabases,
    sameBytes: true,
    minRatio: 0.9,
  },
  {
    name: 'command-line: /json, front listener',
    listener: 'front',
    path: `/json?ip=${BENCH_IP}`,
    headers: CURL,
    env: DEFAULTS,
    prepare: writeBenchDatabases,
    sameBytes: true,
    minRatio: 0.8,
  },
  {
    name: 'command-line: curl <site> (plain address), front listener, global limiter on',
    listener: 'front',
    path: '/',
    headers: CURL,
    env: LIMITER_ON,
    prepare: writeBenchDatabases,
    sameBytes: true,
  },
  {
    name: 'command-line: /json, front listener, global limiter on',
    listener: 'front',
    path: `/json?ip=${BENCH_IP}`,
    headers: CURL,
    env: LIMITER_ON,
    prepare: writeBenchDatabases,
    sameBytes: true,
  },
];
