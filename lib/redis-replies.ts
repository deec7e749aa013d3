// What the Redis users read of a link's errors and address without making
// one: kept apart from redis-link.ts, which loads ioredis, so that only a
// deployment that sets REDIS_URL or REPORT_REDIS_URL loads it.

// ioredis's error for a command that outlived commandTimeout.
export const TIMED_OUT = 'Command timed out';

/** Redis's refusal of a write while its memory is over maxmemory and its policy evicts nothing. */
export const isOutOfMemory = (err: Error): boolean => err.message.startsWith('OOM ');

/** `redis://user:secret@host:6379/0` without its password, for log lines. */
export function redisUrlForLogs(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
