import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { HttpError } from '../../lib/http-error.js';
import { ErrorBody, TooManyRequestsBody } from '../../schemas/error-body.js';
import {
  Created,
  DeliveryAnswer,
  PushAnswer,
  PushBody,
  WatchAnswer,
  WebhookAnswer,
  WebhookBody,
} from '../../contract/watch.js';
import { TokenParams } from './token.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const INVALID_WEBHOOK_BODY = 'Body must be {"url": "<http or https URL>"} or {"url": null}';
const INVALID_PUSH_BODY = 'Body must be {"subscription": <a PushSubscription as JSON>} or {"subscription": null}';
const checkWebhookBody = Compile(WebhookBody);
const checkPushBody = Compile(PushBody);

/**
 * Address watch (routes/watch/README.md): a visitor's opt-in history of their
 * public address, recorded by `curl <site>/watch/<token>` on the front
 * listener (web/command-line/watch.ts) and read, notified and deleted here.
 * Kept in the report store REPORT_STORE chose.
 */
const watch: FastifyPluginAsyncTypebox = async (app) => {
  const config = app.config;
  const watches = app.watches;
  if (!watches.notifier.webPush) {
    app.log.info(
      'address watch: web push is off, watches notify by webhook only; set WEB_PUSH_VAPID_PUBLIC_KEY, ' +
        'WEB_PUSH_VAPID_PRIVATE_KEY and WEB_PUSH_SUBJECT to turn it on',
    );
  }
  const perDay = config.WATCH_MAX_PER_CLIENT;
  // Counted on arrival, before the sign-in check or the store is asked anything.
  const limit = perDay > 0 ? app.routeLimiter('watch', perDay, DAY_MS) : undefined;

  app.post(
    '/watch',
    {
      onRequest: limit,
      schema: {
        summary: 'Start an address watch: its token, shown this once',
        description:
          'Signed in (Authorization: Bearer <ID token>), the watch is counted against the visitor’s ' +
          'WATCH_MAX_PER_SIGN_IN; a client creates at most WATCH_MAX_PER_CLIENT a day.',
        response: {
          201: Created,
          401: ErrorBody,
          429: Type.Union([TooManyRequestsBody, ErrorBody]),
          500: ErrorBody,
          503: ErrorBody,
          507: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const subject = await app.signInTokens.check(request.headers.authorization);
      const { token, expiresAt } = await watches.create(subject);
      return reply.code(201).send({ token, path: `/watch/${token}`, expiresAt });
    },
  );

  app.get(
    '/watch/:token',
    {
      schema: {
        summary: "An address watch's history (address, network, country, first and last seen) and notifications",
        params: TokenParams,
        response: { 200: WatchAnswer, 404: ErrorBody, 500: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { record, expiresAt } = await watches.read(request.params.token);
      return {
        createdAt: record.createdAt,
        expiresAt,
        entries: record.entries,
        webhook: record.webhook ?? null,
        webPush: {
          available: watches.notifier.webPush,
          publicKey: watches.notifier.webPush ? config.WEB_PUSH_VAPID_PUBLIC_KEY : null,
          subscribed: record.push !== undefined,
        },
      };
    },
  );

  app.put(
    '/watch/:token/webhook',
    {
      schema: {
        summary: "Set (or, with null, remove) an address watch's webhook, told of each change",
        params: TokenParams,
        documentedBody: WebhookBody,
        response: {
          200: WebhookAnswer,
          400: ErrorBody,
          404: ErrorBody,
          500: ErrorBody,
          503: ErrorBody,
          507: ErrorBody,
        },
      },
    },
    async (request) => {
      if (!checkWebhookBody.Check(request.body)) throw new HttpError(400, INVALID_WEBHOOK_BODY);
      return { webhook: await watches.setWebhook(request.params.token, request.body.url) };
    },
  );

  app.post(
    '/watch/:token/webhook/test',
    {
      schema: {
        summary: "Send a test notice to an address watch's webhook now; whether it was taken",
        params: TokenParams,
        response: { 200: DeliveryAnswer, 404: ErrorBody, 500: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => watches.testWebhook(request.params.token),
  );

  app.put(
    '/watch/:token/push',
    {
      schema: {
        summary: "Set (or, with null, remove) an address watch's web push subscription",
        params: TokenParams,
        documentedBody: PushBody,
        response: { 200: PushAnswer, 400: ErrorBody, 404: ErrorBody, 500: ErrorBody, 503: ErrorBody, 507: ErrorBody },
      },
    },
    async (request) => {
      if (!checkPushBody.Check(request.body)) throw new HttpError(400, INVALID_PUSH_BODY);
      return { subscribed: await watches.setPush(request.params.token, request.body.subscription) };
    },
  );

  app.delete(
    '/watch/:token',
    {
      schema: {
        summary: 'Delete an address watch: its history, webhook and push subscription',
        params: TokenParams,
        response: { 204: Type.Null(), 404: ErrorBody, 500: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      await watches.remove(request.params.token);
      return reply.code(204).send(null);
    },
  );
};

export default watch;
export { examples } from './examples.js';
