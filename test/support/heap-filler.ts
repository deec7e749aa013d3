// Run as a process of its own under a small --max-old-space-size (test/plugins/load-shedding.test.ts):
// the API app with load shedding on, its heap filled a megabyte at a time by work it keeps, as a flood
// of kept answers would. Prints one JSON line per request answered, then lets the memory go and prints
// until the app answers 200 again; exits 0, or dies of out-of-memory if nothing refused in time.
import { buildTestApi, call } from './app.js';

const STEP_BYTES = 1024 * 1024;
const { app, logs } = await buildTestApi({ LOAD_SHEDDING: 'true' });
const kept: string[][] = [];
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const usedMb = () => Math.round(process.memoryUsage().heapUsed / 1024 / 1024);

// Building the app holds the loop for a while, which the shedder's first delay samples may still see.
await new Promise((resolve) => setTimeout(resolve, 2500));
for (let tries = 0; (await call(app, '/api/configs')).statusCode !== 200; tries++) {
  if (tries === 200) throw new Error('the app never answered 200 before its heap was filled');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

for (;;) {
  // Small strings, as kept headers are: a megabyte of them at each step.
  kept.push(Array.from({ length: STEP_BYTES / 64 }, (_, i) => `${kept.length}-${i}-`.padEnd(64, 'x')));
  const res = await call(app, '/api/configs');
  say({ phase: 'filling', status: res.statusCode, body: res.json(), heldMb: kept.length, usedMb: usedMb() });
  if (res.statusCode === 503) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}

kept.length = 0;
for (let round = 0; ; round++) {
  // Garbage of its own, so the collector runs and finds the heap empty again.
  Array.from({ length: STEP_BYTES / 64 }, (_, i) => `${round}-${i}`.padEnd(64, 'y'));
  const res = await call(app, '/api/configs');
  say({ phase: 'released', status: res.statusCode, usedMb: usedMb() });
  if (res.statusCode === 200) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
say({ phase: 'done', status: 200, warnings: logs.find('heap near its limit').length });
await app.close();
