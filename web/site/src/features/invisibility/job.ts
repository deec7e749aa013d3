import type { Static } from 'typebox';
import type { InvisibilityResult, Pending } from '@contract/private-tools.js';
import type { Clock } from '../../lib/fetch-within.js';
import { callPrivate, type PrivateOutcome } from '../../lib/private-call.js';
import { poll } from '../../lib/poll.js';

export type Detection = Static<typeof InvisibilityResult>;
type Answer = Detection | Static<typeof Pending> | { message?: unknown };

/** Our tag in the job id, where the reference puts its author's name (10 characters, so the id stays 28). */
const TAG = 'netdiagtst';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A job id: 13-digit time in ms, the tag, 5 random base-36 characters: 28 alphanumerics, the route's guard. */
export function newJobId(nowMs: number, random: (length: number) => Uint8Array): string {
  const tail = [...random(5)].map((byte) => BASE36[byte % 36]).join('');
  return `${String(Math.floor(nowMs)).padStart(13, '0').slice(-13)}${TAG}${tail}`;
}

/** The detection script's address for a job: the operator's script with its key, and the job id. */
export function scriptUrl(script: string, id: string): string {
  const url = new URL(script);
  url.searchParams.set('pdVal', id);
  return url.href;
}

/** The reference's schedule: the script gets 10 s to measure, then polls 10 s apart while pending, 8 s after a failure. */
export const FIRST_POLL_MS = 10_000;
export const PENDING_INTERVAL_MS = 10_000;
export const FAILED_INTERVAL_MS = 8_000;
const RETRIES = 3;

/** Still measuring: the route's pending answer, the companion's own words for it, or a result without scores. */
export function isPending(answer: Answer): boolean {
  if ('status' in answer && answer.status === 'pending') return true;
  if ('message' in answer && answer.message === 'Data not found') return true;
  return !('score' in answer) || !answer.score || !('headers' in answer);
}

export type JobOutcome = PrivateOutcome<Detection> | { kind: 'pending' };

export interface JobProgress {
  attempt: number;
  most: number;
}

/** Polls the job: up to three more polls while it is pending, up to three more after failures; refusals are final. */
export async function pollJob(
  clock: Clock,
  id: string,
  auth: Record<string, string>,
  onPoll: (progress: JobProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<JobOutcome | null> {
  let pendings = 0;
  let failures = 0;
  let attempt = 0;
  const most = 1 + RETRIES;
  const outcome = await poll(
    clock,
    FIRST_POLL_MS,
    async (): Promise<JobOutcome> => {
      attempt += 1;
      onPoll({ attempt, most });
      const answer = await callPrivate<Answer>(clock.fetch, `/api/invisibility?id=${id}`, auth, { signal });
      if (answer.kind === 'ok' && isPending(answer.data)) return { kind: 'pending' };
      return answer as PrivateOutcome<Detection>;
    },
    (answer) => {
      if (answer.kind === 'pending') return ++pendings <= RETRIES ? PENDING_INTERVAL_MS : null;
      if (answer.kind === 'failed') return ++failures <= RETRIES ? FAILED_INTERVAL_MS : null;
      return null;
    },
    signal,
  );
  return outcome;
}

/** Adds the detection script to the page; resolves once it loaded, rejects when it could not be loaded. */
export function loadScript(src: string): Promise<HTMLScriptElement> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.async = true;
    script.src = src;
    script.onload = () => resolve(script);
    script.onerror = () => {
      script.remove();
      reject(new Error('detection script not loaded'));
    };
    document.head.append(script);
  });
}
