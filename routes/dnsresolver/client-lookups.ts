import { Slots } from '../../lib/slots.js';

/**
 * Each client's comparisons (its limiter key): at most `perClient` running,
 * as many more waiting in arrival order for one of them to end, at most
 * `waitMs`. A visitor's page runs one comparison at a time (a new one aborts
 * the last in the browser, while the server's runs to its deadline), so it
 * waits a moment at worst; a client asking hundreds of names at once gets
 * its share and a refusal for the rest, and the outside queries
 * (questions.ts) stay for everyone.
 */
export class ClientLookups {
  // Only clients with a comparison running or waiting: each is dropped as its last one ends.
  private readonly clients = new Map<string, Slots>();

  constructor(
    private readonly perClient: number,
    private readonly waitMs: number,
  ) {}

  /** `task`'s result, or undefined when `key` already has its fill waiting or its turn did not come in time. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T | undefined> {
    let slots = this.clients.get(key);
    if (!slots) {
      slots = new Slots(this.perClient);
      this.clients.set(key, slots);
    }
    if (slots.load >= 2 * this.perClient) return undefined;
    try {
      return await slots.run(task, AbortSignal.timeout(this.waitMs));
    } finally {
      if (slots.load === 0) this.clients.delete(key);
    }
  }
}
