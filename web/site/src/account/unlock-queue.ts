/**
 * Unlocks achievements one at a time, `spacingMs` apart (the reference's two
 * seconds, so a burst of unlocks reads as separate notices and reaches the
 * companion API as separate calls), each name once: one already held or
 * already waiting is skipped. A failed unlock is forgotten, so a later result
 * earning it again tries again.
 */
export class UnlockQueue {
  private readonly waiting: string[] = [];
  private readonly claimed = new Set<string>();
  private draining: Promise<void> | null = null;

  constructor(
    private readonly unlock: (name: string) => Promise<void>,
    private readonly spacingMs: number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Names already unlocked (the profile's snapshot): never unlocked again. */
  hold(names: Iterable<string>): void {
    for (const name of names) this.claimed.add(name);
  }

  offer(names: Iterable<string>): void {
    for (const name of names) {
      if (this.claimed.has(name)) continue;
      this.claimed.add(name);
      this.waiting.push(name);
    }
    if (!this.draining && this.waiting.length) {
      this.draining = this.drain().finally(() => (this.draining = null));
    }
  }

  /** Resolves once nothing waits. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    for (let first = true; this.waiting.length; first = false) {
      if (!first) await this.sleep(this.spacingMs);
      const name = this.waiting.shift()!;
      try {
        await this.unlock(name);
      } catch {
        this.claimed.delete(name);
      }
    }
  }
}
