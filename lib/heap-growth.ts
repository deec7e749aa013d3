import { setFlagsFromString } from 'node:v8';

/** V8's own ceiling for the old generation's growth between full collections (its kMaxHeapGrowingFactor, 4). */
export const HEAP_GROWING_PERCENT = 300;

/**
 * Fixes V8's old-generation growth factor at its ceiling.
 *
 * V8 picks the factor after each full collection from how fast the program
 * allocates against how fast it collects, between 1.1 and 4. Under a
 * speed-test upload (gigabytes a second of request bodies, each freed by the
 * next young collection) it settled at about 1.5: 20 MB of slack over this
 * service's 40 MB, less than the young generation, so V8 started a full
 * collection after nearly every young one, 15 to 25 a second, and uploads
 * ran at 0.35 of bare node:http. At 4 the slack outgrows the young
 * generation and the upload ratio was 1.0 to 1.6 (docs/performance.md, the
 * register). The cost is a heap that may grow to four times what is live
 * before it is collected, which V8 allows itself whenever all is well; measured
 * (bench/results/2026-11-29-memory.md, docs/performance.md) it cost no resident
 * memory idle or after ten seconds of geo-local load, within the 5 MB that
 * runs differ by.
 *
 * The young generation is sized in bin/start.sh, the one launcher every start
 * goes through (V8 reads --max-semi-space-size only as it sets the heap up;
 * set from here it changed nothing): 2 MB semi-spaces instead of 16, measured
 * there and in bench/results/2026-11-29-stop-39.md.
 */
export function fixHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
