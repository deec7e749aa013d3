import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const LOAD_CORE = '0';
const SERVER_CORE = '1';
// Read before pinning: afterwards availableParallelism() counts only the load generator's core.
const CORES = availableParallelism();

/**
 * Gives the load generator (this process, autocannon runs in it) one core and
 * every server it measures another, when the machine has two or more cores,
 * util-linux's taskset is there and BENCH_PIN is not 0. Unpinned on a 2-core
 * machine, the two trade cores as the scheduler likes, and a server's kernel
 * network work spills onto the load generator's core: the cheapest server
 * (the bare baseline) then gets more than one core's worth and every ratio
 * depends on the scheduler. Pinned, each server gets exactly one core, which
 * is what a ratio of two single-threaded servers means. Returns whether it pinned.
 */
export function pinLoadGenerator(): boolean {
  if (process.env.BENCH_PIN === '0' || CORES < 2) return false;
  return setAffinity(LOAD_CORE);
}

/** Gives this process, and what it starts from now on, every core again. */
export function unpinLoadGenerator(): void {
  setAffinity(`0-${CORES - 1}`);
}

function setAffinity(cores: string): boolean {
  return spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/** The command and arguments that start `node args…` (or `command args…`), on the servers' core when `pinned`. */
export function serverCommand(pinned: boolean, args: string[], command = process.execPath): [string, string[]] {
  return pinned ? ['taskset', ['-c', SERVER_CORE, command, ...args]] : [command, args];
}
