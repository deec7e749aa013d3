import type { Redis } from 'ioredis';

export type Reply = (error: Error | null, result?: unknown) => void;
type Command = { name: string; args: unknown[]; reply: Reply };

/**
 * The limiters' commands of one event-loop turn, sent to Redis as one
 * pipeline: one write (and one read on each side) for every request that turn
 * served, where a command per request each cost its own write system call and
 * a read in Redis. ioredis's own auto-pipelining flushes on `process.nextTick`,
 * that is after each request, so it never batches across requests; this one
 * flushes in `setImmediate`, after every socket the turn read from.
 */
export class CommandBatch {
  private queued: Command[] = [];
  private scheduled = false;

  constructor(private readonly client: Redis) {}

  /** Sends command `name` (a script defined on the client, by its name) with `args`; `reply` gets its answer. */
  send(name: string, args: unknown[], reply: Reply): void {
    this.queued.push({ name, args, reply });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const queued = this.queued;
    this.queued = [];
    this.scheduled = false;
    const pipeline = this.client.pipeline();
    for (const { name, args } of queued) {
      Reflect.apply(Reflect.get(pipeline, name) as (...args: unknown[]) => unknown, pipeline, args);
    }
    pipeline.exec().then(
      (results) => {
        for (let i = 0; i < queued.length; i++) {
          const [error, result] = results?.[i] ?? [new Error('Redis gave no reply'), undefined];
          queued[i]!.reply(error, result);
        }
      },
      (error: Error) => {
        for (const { reply } of queued) reply(error);
      },
    );
  };
}
