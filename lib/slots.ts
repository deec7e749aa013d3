/**
 * At most `size` tasks at once; the others wait in arrival order. A task whose
 * signal aborts while it waits leaves the queue without running, so a waiting
 * caller still keeps its deadline.
 */
export class Slots {
  private running = 0;
  // A Set keeps insertion order and drops a task that gave up in constant time.
  private readonly waiting = new Set<() => void>();

  constructor(readonly size: number) {}

  /** The tasks running and waiting now. */
  get load(): number {
    return this.running + this.waiting.size;
  }

  /** `task`'s result once a slot was free for it; undefined when `signal` aborted first and it never ran. */
  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T | undefined> {
    if (!(await this.turn(signal))) return undefined;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private turn(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const admit = () => {
        signal.removeEventListener('abort', giveUp);
        resolve(true);
      };
      const giveUp = () => {
        this.waiting.delete(admit);
        resolve(false);
      };
      this.waiting.add(admit);
      signal.addEventListener('abort', giveUp, { once: true });
    });
  }

  /** Hands the slot straight to the first waiting task, or frees it. */
  private release(): void {
    const [next] = this.waiting;
    if (!next) {
      this.running--;
      return;
    }
    this.waiting.delete(next);
    next();
  }
}
