/** A step was not begun, or stopped being waited for, because its deadline had passed. */
export class DeadlinePassed extends Error {
  constructor() {
    super('deadline passed');
    this.name = 'DeadlinePassed';
  }
}

/**
 * One time limit shared by several steps: each gets what the steps before it
 * left, so a chain of upstream calls ends by one deadline however many calls
 * it makes.
 */
export class Deadline {
  private readonly at: number;

  constructor(ms: number) {
    this.at = performance.now() + ms;
  }

  /** Milliseconds left; DeadlinePassed when none are, so a step that cannot finish is not begun. */
  left(): number {
    const left = Math.floor(this.at - performance.now());
    if (left <= 0) throw new DeadlinePassed();
    return left;
  }

  /** A deadline `share` (0 to 1) of the way from now to this one: when to stop waiting for one source alone. */
  share(share: number): Deadline {
    return new Deadline(Math.max(0, (this.at - performance.now()) * share));
  }

  /**
   * `work`'s outcome, or DeadlinePassed at the deadline, whichever comes
   * first. `work` is not cancelled: a lookup shared with other requests goes
   * on and fills its cache for the next one.
   */
  async race<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const passed = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DeadlinePassed()), Math.max(0, this.at - performance.now()));
    });
    try {
      return await Promise.race([work, passed]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Whether `work` ends within `ms` (it runs on either way); rejects as `work` does when it fails in time. */
export async function endsWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  try {
    await new Deadline(ms).race(work);
    return true;
  } catch (err) {
    if (err instanceof DeadlinePassed) return false;
    throw err;
  }
}
