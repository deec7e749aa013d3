import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/http-error.js';
import { STORE_UNAVAILABLE, StoreRefusal, type ReportStore } from '../report/store.js';
import { changeNotice, type Delivery, type Notifier, type WatchNotice } from './notifier.js';
import { liveEntries, seenAt, type Placed, type PushSubscription, type Seen, type WatchRecord } from './record.js';
import { checkPushEndpoint, checkWebhook, TargetRefused } from './target.js';
import { newWatchToken, ownerId, watchId } from './token.js';

export const WATCH_NOT_FOUND = 'Watch not found or expired';
export const WATCH_NOT_CONFIGURED = 'Address watch is not configured';
export const TOO_MANY_WATCHES = 'Too many watches for this sign-in';
export const WEB_PUSH_OFF =
  'Web push is off on this server: WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY and WEB_PUSH_SUBJECT turn it on';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WatchLimits {
  /** WATCH_TTL_DAYS. */
  ttlDays: number;
  /** WATCH_MAX_ENTRIES. */
  maxEntries: number;
  /** WATCH_MAX_PER_SIGN_IN. */
  maxPerSignIn: number;
}

/** A watch as its visitor reads it. */
export interface WatchView {
  record: WatchRecord;
  expiresAt: string;
}

/** The list of watch ids a signed-in visitor holds, stored as a report is. */
interface OwnerList {
  watches: string[];
}

/**
 * Address watches (routes/watch/README.md) in the report store REPORT_STORE
 * chose: one value per watch under the digest of its token, rewritten with a
 * fresh expiry at each change or call, and for a signed-in visitor a list of
 * their watches, which bounds how many they hold. Two calls of one watch at
 * the same instant may each write; the later write wins, which costs at most
 * a last-seen time.
 */
export class Watches {
  constructor(
    private readonly store: ReportStore | undefined,
    private readonly limits: WatchLimits,
    readonly notifier: Notifier,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** False while REPORT_STORE has nowhere to keep watches (the key-value store without its settings). */
  get configured(): boolean {
    return this.store !== undefined;
  }

  private get ttlMs(): number {
    return this.limits.ttlDays * DAY_MS;
  }

  /** A new watch, on the signed-in visitor's list when `subject` is given; its token, shown this once. */
  async create(subject: string | undefined, now = new Date()): Promise<{ token: string; expiresAt: string }> {
    const store = this.writable();
    const token = newWatchToken();
    const id = watchId(token);
    const record: WatchRecord = { createdAt: now.toISOString(), entries: [] };
    if (subject !== undefined) {
      const owner = ownerId(subject);
      const held = await this.ownedLive(owner);
      if (held.length >= this.limits.maxPerSignIn) throw new HttpError(429, TOO_MANY_WATCHES);
      record.owner = owner;
      await this.put(store, owner, { watches: [...held, id] }, now);
    }
    return { token, expiresAt: await this.put(store, id, record, now) };
  }

  /** The watch the token opens; 404 when there is none (never made, deleted or expired). */
  async read(token: string, now = Date.now()): Promise<WatchView> {
    const stored = await this.readable().get(watchId(token));
    if (!stored) throw new HttpError(404, WATCH_NOT_FOUND);
    const record = stored.report as WatchRecord;
    return {
      record: { ...record, entries: liveEntries(record.entries, now, this.ttlMs) },
      expiresAt: stored.expiresAt,
    };
  }

  /**
   * The caller of `/watch/<token>` seen at `placed`: recorded when the address
   * changed, its last-seen time moved otherwise; a change is sent to the
   * watch's webhook and push subscription in the background.
   */
  async seen(token: string, placed: Placed, now = new Date()): Promise<Seen> {
    const { record } = await this.read(token, now.getTime());
    const store = this.writable();
    const { entries, seen, previous } = seenAt(record.entries, placed, now, this.ttlMs, this.limits.maxEntries);
    await this.put(store, watchId(token), { ...record, entries }, now);
    if (seen === 'changed') void this.notify(record, changeNotice(entries.at(-1)!, previous));
    return seen;
  }

  /** Sets (or, with null, removes) the watch's webhook; a URL the rules refuse is 400 and nothing is stored. */
  async setWebhook(token: string, url: string | null): Promise<string | null> {
    const { record } = await this.read(token);
    const webhook = url === null ? undefined : await this.checked(() => checkWebhook(url, this.notifier.rules));
    const { webhook: _old, ...rest } = record;
    await this.put(this.writable(), watchId(token), webhook ? { ...rest, webhook } : rest);
    return webhook ?? null;
  }

  /** Sets (or removes) the watch's web push subscription; 503 while web push is off. */
  async setPush(token: string, subscription: PushSubscription | null): Promise<boolean> {
    const { record } = await this.read(token);
    if (subscription !== null) {
      if (!this.notifier.webPush) throw new HttpError(503, WEB_PUSH_OFF);
      await this.checked(() => checkPushEndpoint(subscription.endpoint, this.notifier.rules));
    }
    const { push: _old, ...rest } = record;
    await this.put(this.writable(), watchId(token), subscription ? { ...rest, push: subscription } : rest);
    return subscription !== null;
  }

  /** Sends a test notice to the watch's webhook now: how it went. 404 when the watch has none. */
  async testWebhook(token: string, now = new Date()): Promise<Delivery> {
    const { record } = await this.read(token, now.getTime());
    if (!record.webhook) throw new HttpError(404, 'Watch has no webhook');
    const last = record.entries.at(-1);
    return this.notifier.webhook(record.webhook, {
      event: 'test',
      address: last?.address ?? '',
      asn: last?.asn ?? null,
      network: last?.network ?? null,
      country: last?.country ?? null,
      previous: null,
      at: now.toISOString(),
    });
  }

  /** Deletes the watch, its history and its URLs, and takes it off its owner's list. 404 when there is none. */
  async remove(token: string): Promise<void> {
    const { record } = await this.read(token);
    const store = this.writable();
    const id = watchId(token);
    if (record.owner) {
      const rest = (await this.ownedLive(record.owner)).filter((held) => held !== id);
      if (rest.length > 0) await this.put(store, record.owner, { watches: rest });
      else await this.deleted(store, record.owner);
    }
    await this.deleted(store, id);
  }

  /** The watches still stored of those on an owner's list (a watch expires on its own, off the list). */
  private async ownedLive(owner: string): Promise<string[]> {
    const store = this.readable();
    const list = (await store.get(owner))?.report as OwnerList | undefined;
    const held = list?.watches ?? [];
    const live = await Promise.all(held.map(async (id) => ((await store.get(id)) ? id : undefined)));
    return live.filter((id) => id !== undefined);
  }

  private async notify(record: WatchRecord, notice: WatchNotice): Promise<void> {
    const sent: Array<[string, Promise<Delivery>]> = [];
    if (record.webhook) sent.push(['webhook', this.notifier.webhook(record.webhook, notice)]);
    if (record.push) sent.push(['web push', this.notifier.push(record.push, notice)]);
    for (const [how, delivery] of sent) {
      const { delivered, reason } = await delivery;
      // The visitor's receiver, not the service, failed: a line for whoever looks, at info, with no URL in it.
      if (!delivered) this.log.info({ how, reason }, "an address watch's notice was not delivered");
    }
  }

  private async checked(check: () => Promise<unknown>): Promise<string> {
    try {
      return (await check()) as string;
    } catch (err) {
      if (err instanceof TargetRefused) throw new HttpError(400, err.message);
      throw err;
    }
  }

  private readable(): ReportStore {
    if (!this.store) throw new HttpError(503, WATCH_NOT_CONFIGURED);
    if (!this.store.readable) throw new HttpError(500, (this.store.refusal ?? unavailable()).message);
    return this.store;
  }

  private writable(): ReportStore {
    const store = this.readable();
    if (!store.ready) {
      const refusal = store.refusal ?? unavailable();
      throw new HttpError(refusal.statusCode, refusal.message);
    }
    return store;
  }

  /** Writes `value` under `id` for WATCH_TTL_DAYS from now; its expiry. A store's refusal is answered as the report routes answer it. */
  private async put(store: ReportStore, id: string, value: object, now = new Date()): Promise<string> {
    const expiresAt = new Date(now.getTime() + this.ttlMs).toISOString();
    try {
      await store.put(id, { expiresAt, report: value }, this.limits.ttlDays * 24 * 60 * 60);
    } catch (err) {
      if (err instanceof StoreRefusal) throw new HttpError(err.statusCode, err.message);
      throw err;
    }
    return expiresAt;
  }

  private async deleted(store: ReportStore, id: string): Promise<void> {
    try {
      await store.delete(id);
    } catch (err) {
      if (err instanceof StoreRefusal) throw new HttpError(err.statusCode, err.message);
      throw err;
    }
  }
}

const unavailable = () => new StoreRefusal(500, STORE_UNAVAILABLE);
