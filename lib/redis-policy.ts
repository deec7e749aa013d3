import type { FastifyBaseLogger } from 'fastify';
import type { Readiness, RedisKeys } from '../operations/readiness.js';
import type { RedisLink } from './redis-link.js';
import { redisUrlForLogs, TIMED_OUT } from './redis-replies.js';

/** What a Redis does when full, read once at start-up: its policy, or null when CONFIG GET was refused. */
export interface EvictionPolicy {
  policy: string | null;
  /** Its memory cap in bytes; 0 is none (it grows until the machine's memory runs out). */
  maxmemory: number;
}

const WORDS: Record<RedisKeys, string> = {
  limits: 'rate limits',
  reports: 'shared reports',
  limitsAndReports: 'rate limits and shared reports',
};

const MB = 1024 * 1024;

/** `maxmemory-policy allkeys-lru, maxmemory 24 MB`, as the start-up line quotes it. */
function described({ policy, maxmemory }: EvictionPolicy): string {
  return `maxmemory-policy ${policy}, maxmemory ${maxmemory === 0 ? 'none' : `${Math.round(maxmemory / MB)} MB`}`;
}

/**
 * What an evicting Redis (any policy but noeviction, once maxmemory is set)
 * costs each kind of key kept in it, and what a noeviction one does when full;
 * undefined where there is nothing to say (no cap, or counters alone in a
 * noeviction Redis, a cost the link logs when it happens).
 */
function consequence(keys: RedisKeys, { policy, maxmemory }: EvictionPolicy, setting: string) {
  if (maxmemory === 0) return undefined;
  const evicts = policy !== 'noeviction';
  switch (keys) {
    case 'limits':
      return evicts
        ? {
            level: 'info' as const,
            msg:
              `Redis evicts keys when full (${described({ policy, maxmemory })}): a full Redis resets clients' ` +
              `rate-limit counts early, so their limits loosen; size its maxmemory for the counters (${setting})`,
          }
        : undefined;
    case 'reports':
      return evicts
        ? {
            level: 'warn' as const,
            msg:
              `Redis for shared reports evicts keys when full (${described({ policy, maxmemory })}): a full Redis ` +
              `deletes reports before they expire and their links stop working; set its maxmemory-policy to ` +
              `noeviction (${setting})`,
          }
        : {
            level: 'info' as const,
            msg:
              `Redis for shared reports keeps every report when full (${described({ policy, maxmemory })}): ` +
              `POST /api/report answers 507 until reports expire or maxmemory is raised (${setting})`,
          };
    case 'limitsAndReports':
      return {
        level: 'warn' as const,
        msg: evicts
          ? `Redis holds both rate-limit counters and shared reports and evicts keys when full ` +
            `(${described({ policy, maxmemory })}): a report flood resets clients' counts early, so their limits ` +
            `loosen, and deletes reports before they expire; give reports a Redis of their own with ` +
            `maxmemory-policy noeviction (REPORT_REDIS_URL)`
          : `Redis holds both rate-limit counters and shared reports and evicts nothing when full ` +
            `(${described({ policy, maxmemory })}): a report flood fills it, and the rate limits then count in ` +
            `each process only; give reports a Redis of their own (REPORT_REDIS_URL)`,
      };
  }
}

/** What to check by hand when the policy cannot be read, per kind of key. */
const CHECK: Record<RedisKeys, string> = {
  limits: 'an evicting policy resets rate-limit counts early when it is full',
  reports: 'it must be noeviction, or a full Redis deletes shared reports before they expire',
  limitsAndReports:
    'a report flood in a full Redis either evicts rate-limit counts (limits loosen) and reports, ' +
    'or with noeviction stops the counting; give reports a Redis of their own',
};

// A busy start-up can outlast the link's 250 ms command timeout: the policy is asked again.
const READ_TRIES = 5;
const RETRY_AFTER_MS = 1000;

/** `maxmemory` and `maxmemory-policy`, in one command; a command that timed out is asked again a few times. */
async function readPolicy(link: RedisLink): Promise<EvictionPolicy> {
  for (let tried = 1; ; tried++) {
    try {
      const pairs = (await link.client.config('GET', 'maxmemory*')) as string[];
      const value = (name: string) => pairs[pairs.indexOf(name) + 1];
      return { policy: value('maxmemory-policy') ?? null, maxmemory: Number(value('maxmemory') ?? 0) };
    } catch (err) {
      if ((err as Error).message !== TIMED_OUT || tried === READ_TRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS).unref());
    }
  }
}

/**
 * Reads the eviction policy of the Redis behind `link` once it is connected,
 * and logs in one line what that policy costs the keys kept there (`keys`).
 * Managed offerings may refuse CONFIG GET: the line then says the policy is
 * unknown and what to check with the provider. Never throws; resolves with
 * what was read, for /readyz.
 */
export async function checkEvictionPolicy(
  link: RedisLink,
  keys: RedisKeys,
  logger: FastifyBaseLogger,
): Promise<EvictionPolicy> {
  const redis = redisUrlForLogs(link.url);
  const setting = keys === 'limitsAndReports' ? 'REDIS_URL' : link.use.setting;
  let read: EvictionPolicy;
  try {
    read = await readPolicy(link);
  } catch (err) {
    const reason = (err as Error).message;
    logger.warn(
      { redis, reason },
      `the eviction policy of the Redis for ${WORDS[keys]} could not be read ` +
        `(${reason === TIMED_OUT ? 'no answer' : 'CONFIG GET refused'}); check its maxmemory-policy with its ` +
        `provider: ${CHECK[keys]} (${setting}, docs/scale-out.md)`,
    );
    return { policy: null, maxmemory: 0 };
  }
  const line = consequence(keys, read, setting);
  if (line) logger[line.level]({ redis, policy: read.policy, maxmemory: read.maxmemory }, line.msg);
  return read;
}

/**
 * Checks the policy of the Redis behind `link` once it is first connected (a
 * Redis not up at start-up is checked when it comes), and shows on /readyz
 * whether the link can be used now and the policy read.
 */
export function watchRedis(
  app: { log: FastifyBaseLogger; readiness: Readiness },
  link: RedisLink,
  keys: RedisKeys,
): void {
  let policy: string | null = null;
  const check = () =>
    void checkEvictionPolicy(link, keys, app.log).then((read) => {
      policy = read.policy;
    });
  if (link.client.status === 'ready') check();
  else link.client.once('ready', check);
  app.readiness.addRedis(keys, () => ({ ready: link.usable, evictionPolicy: policy }));
}
