import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { expectedFailure, UpstreamError, type LogFields } from '../lib/upstream-failure.js';

/**
 * How often repeats of one failure kind are summed up. A minute is what an
 * operator's alerting and dashboards usually read in, and an upstream that is
 * down for an hour then costs about 60 lines per kind instead of one (or up
 * to nine) per request; a kind that stays quiet for a minute is forgotten,
 * so its next failure is reported at once again.
 */
const DIGEST_INTERVAL_MS = 60_000;

// The fields that name which upstream or step failed (a Radar source or
// segment, a WHOIS server): failures of two of them are two kinds. Nothing a
// visitor chooses (an address, a private API path with its token) is one.
const WHICH_UPSTREAM = ['source', 'segment', 'server'] as const;

/** One failure kind seen in the current interval. */
interface Tally {
  route: string;
  /** The fields of WHICH_UPSTREAM the failure named. */
  which: LogFields;
  failure: string;
  reason: string;
  repeats: number;
  lastReason: string | undefined;
  /** When this kind last had a line of its own (its first occurrence or its previous summary). */
  loggedAt: number;
}

/**
 * What tells failures of one upstream apart: an error status (HTTP 503), a
 * system error's code (ECONNREFUSED), a timeout. Not the text: a provider's
 * may name the address asked about, and a refused connection's names its
 * port, which must not make every request a kind of its own.
 */
function reasonClass(fields: LogFields): string {
  let err = fields.err;
  while (err instanceof Error) {
    if (err instanceof UpstreamError) return err.status === undefined ? err.message : `HTTP ${err.status}`;
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    if (err.name === 'AbortError') return expectedFailure(err) ?? err.name;
    if (!(err.cause instanceof Error)) return err.name;
    err = err.cause;
  }
  return typeof fields.status === 'number' ? `HTTP ${fields.status}` : 'failure';
}

/** The failure's own words, for the summary: what the last repeat said. */
function reasonText(fields: LogFields): string | undefined {
  const err = fields.err;
  if (err instanceof Error) return expectedFailure(err) ?? err.message;
  return typeof err === 'string' ? err : undefined;
}

/**
 * Request-time upstream failures, logged so that an outage stays readable: the
 * first failure of a kind (route, log message, the upstream it names, reason
 * class) is a warning at once, with the request's id and every field; its
 * repeats are debug lines of their request, counted, and once per interval
 * one warning sums them up with their number and the last reason. stop()
 * writes what is still counted.
 */
export class FailureDigest {
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly intervalMs = DIGEST_INTERVAL_MS,
  ) {}

  /** Logs one failure of `route` through the request's logger `log`: a warning, or a counted debug line. */
  report(log: FastifyBaseLogger, route: string, fields: LogFields, msg: string): void {
    const reason = reasonClass(fields);
    const which = Object.fromEntries(WHICH_UPSTREAM.filter((name) => name in fields).map((n) => [n, fields[n]]));
    const key = JSON.stringify([route, msg, reason, which]);
    const tally = this.tallies.get(key);
    if (tally && !this.stopped) {
      tally.repeats += 1;
      tally.lastReason = reasonText(fields);
      log.debug({ ...fields, route }, msg);
      return;
    }
    log.warn({ ...fields, route }, msg);
    // Past shutdown nothing would write a summary: every failure keeps its own line.
    if (this.stopped) return;
    this.tallies.set(key, {
      route,
      which,
      failure: msg,
      reason,
      repeats: 0,
      lastReason: reasonText(fields),
      loggedAt: Date.now(),
    });
    // Unref'd: a pending summary never keeps the process alive; stop() writes it instead.
    this.timer ??= setInterval(() => this.flush(), this.intervalMs).unref();
  }

  /** One summary line per kind that repeated since its last line; kinds that did not are forgotten. */
  flush(): void {
    const now = Date.now();
    for (const [key, tally] of this.tallies) {
      if (tally.repeats === 0) {
        this.tallies.delete(key);
        continue;
      }
      const { route, which, failure, reason, repeats, lastReason } = tally;
      this.logger.warn(
        {
          route,
          ...which,
          failure,
          reason,
          repeats,
          ...(lastReason === undefined ? {} : { lastReason }),
          seconds: Math.round((now - tally.loggedAt) / 1000),
        },
        `${failure} (repeated)`,
      );
      tally.repeats = 0;
      tally.loggedAt = now;
    }
    if (this.tallies.size === 0) this.stopTimer();
  }

  /** Writes the pending summaries; from then on every failure is a warning of its own. */
  stop(): void {
    this.flush();
    this.stopped = true;
    this.tallies.clear();
    this.stopTimer();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** For a lookup shared by many requests and outliving them (the AS organisation names): its own route name. */
    failuresOf(route: string): FailureLog;
  }
  interface FastifyRequest {
    /**
     * Logs an upstream's failure met while answering this request: the one way
     * a route or the error handler reports one (FailureDigest).
     */
    logUpstreamFailure(fields: LogFields, msg: string): void;
  }
}

/** What a route's helpers need to report an upstream's failure: the request itself will do. */
export type FailureLog = Pick<FastifyRequest, 'logUpstreamFailure'>;

/**
 * Request-time upstream failures as an operator can read them during an
 * outage: the first of a kind at once, its repeats summed up once a minute
 * (FailureDigest). The summaries still counted are written at shutdown.
 */
export default fp(
  async (app) => {
    const digest = new FailureDigest(app.log);
    app.lifecycle.onStop('upstream failure summaries', () => digest.stop());
    app.decorateRequest('logUpstreamFailure', function (this: FastifyRequest, fields: LogFields, msg: string) {
      digest.report(this.log, this.routeOptions.url ?? this.url, fields, msg);
    });
    app.decorate('failuresOf', (route: string): FailureLog => ({
      logUpstreamFailure: (fields: LogFields, msg: string) => digest.report(app.log, route, fields, msg),
    }));
  },
  { name: 'failure-log' },
);
