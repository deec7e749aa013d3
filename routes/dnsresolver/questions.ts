import { Slots } from '../../lib/slots.js';
import { FAILED, type RowAnswer } from './result.js';

// A question whose turn comes with less than this left of its deadline is not asked: its answer
// could not arrive in time, and asking would hold a slot (c-ares keeps a plain query for its whole
// timeout) that a question still in time is waiting for.
const TOO_LATE_MS = 100;

/** Asks one outside resolver; `remainingMs` is what is left of the deadline when its turn comes. */
export type Question = (remainingMs: number) => Promise<RowAnswer>;

/**
 * The outside DNS questions (plain and DoH) of every lookup: a question
 * already out to the same resolver is shared instead of asked again, and at
 * most `concurrency` are out at once, the others waiting their turn. A
 * question's answer is N/A (failed) once its deadline passes, waiting or asked, and
 * when it fails (`onFailure` hears why).
 */
export class Questions {
  private readonly slots: Slots;
  private readonly inFlight = new Map<string, Promise<RowAnswer>>();

  constructor(concurrency: number) {
    this.slots = new Slots(concurrency);
  }

  /**
   * `key` names the resolver and the question: every caller asking the same
   * key while it is out gets the same answer. A joiner asks with the same
   * deadline as the first caller, later, so the shared answer is within its
   * own deadline too.
   */
  ask(key: string, deadlineMs: number, question: Question, onFailure: (err: unknown) => void): Promise<RowAnswer> {
    let answer = this.inFlight.get(key);
    if (!answer) {
      answer = this.withinDeadline(deadlineMs, question, onFailure).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, answer);
    }
    return answer;
  }

  private async withinDeadline(deadlineMs: number, question: Question, onFailure: (err: unknown) => void) {
    const deadlineAt = performance.now() + deadlineMs;
    const expired = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The deadline is ours to keep: c-ares rounds its own timer, and a query on
    // a shared channel cannot be cancelled alone. The race answers N/A on time;
    // the question keeps its slot until it really ends at its own timeout.
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        expired.abort();
        resolve(undefined);
      }, deadlineMs);
    });
    try {
      const asked = this.slots.run(async () => {
        const remainingMs = deadlineAt - performance.now();
        return remainingMs < TOO_LATE_MS ? FAILED : question(remainingMs);
      }, expired.signal);
      return (await Promise.race([asked, timedOut])) ?? FAILED;
    } catch (err) {
      onFailure(err);
      return FAILED;
    } finally {
      clearTimeout(timer);
    }
  }
}
