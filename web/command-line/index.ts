import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { callerAddress, clientIp } from '../../lib/client-ip.js';
import type { GeoDatabases } from '../../datasets/geo/databases.js';
import type { GlobalLimiter } from '../../lib/global-limiter.js';
import clientIpSlots from '../../plugins/client-ip.js';
import { globalLimitCheck, limiterLibrary, type LimitCheck } from '../../plugins/rate-limit.js';
import { answerFor, internalFailure, ipParameter, notServed, tooManyRequests, type Answer } from './answer.js';
import { commandLineFormat } from './client.js';
import { FACE_PATHS, type FaceRequest } from './paths.js';
import { AddressQuery, jsonAnswers, lineAnswers, rootAnswers } from './schemas.js';
import { sendAnswer } from './send-answer.js';
import watchFace from './watch.js';
import { underLimit } from './under-limit.js';
import type { Watches } from '../../routes/watch/watches.js';

export { faceRequest } from './paths.js';

export interface CommandLineOptions {
  /** The local databases the answers come from (the geo routes' own). */
  databases: GeoDatabases;
  /** The global limiter /api counts with too; absent while SECURITY_RATE_LIMIT is 0. */
  globalLimiter: GlobalLimiter | undefined;
  /** The address watches `curl <site>/watch/<token>` records into. */
  watches: Watches;
  /** Answers everyone else on the same paths: the site (its single-page-app fallback for a navigation). */
  site: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

const TAGS = ['command-line'];

const RESPONSES: Record<string, object> = { '/': rootAnswers, '/json': jsonAnswers };

/**
 * Answers a face request in the raw listener, before Fastify sees it: the
 * speed device of web/app.ts, for when no limiter needs counting. The same
 * answer as the routes below give (test/command-line/speed-device.test.ts).
 */
export function answerInListener(
  req: IncomingMessage,
  res: ServerResponse,
  face: FaceRequest,
  databases: GeoDatabases,
  logger: Logger,
): void {
  sendAnswer(
    res,
    answerOrFailure(face, req, () => callerAddress(req.headers, req.socket.remoteAddress), databases, logger),
  );
}

/** The face's answer; a failure of our own (a bug, a database that cannot be read) is logged and answered 500 in fixed words. */
function answerOrFailure(
  { path, format }: FaceRequest,
  req: IncomingMessage,
  caller: () => string,
  databases: GeoDatabases,
  log: FastifyBaseLogger,
): Answer {
  const url = req.url ?? '/';
  try {
    return answerFor(path, format, ipParameter(url), caller(), req.headers['user-agent'], databases);
  } catch (err) {
    log.error({ err, url }, 'request failed');
    return internalFailure(path, format);
  }
}

/**
 * Answers a command-line client's request for a path neither the face nor
 * the site's files serve with the face's one-line 404, and says so: the
 * site's page (a 200 for any path) would tell a script its URL was right.
 * False for everyone else, whom the site answers.
 */
export function answerNotServed(request: FastifyRequest, reply: FastifyReply): boolean {
  const format = commandLineFormat(request.headers);
  if (!format) return false;
  reply.hijack();
  sendAnswer(reply.raw, notServed(format));
  return true;
}

/**
 * The command-line face (web/command-line/README.md): the paths of the ifconfig.co
 * engine, answered from the local databases only, for command-line clients;
 * a browser on the same paths gets the site. The global limiter /api uses
 * (composition.ts) counts these requests too: one count, under the same key.
 */
const commandLine: FastifyPluginAsync<CommandLineOptions> = async (
  app,
  { databases, globalLimiter, watches, site },
) => {
  await app.register(clientIpSlots);
  let globalLimit: LimitCheck | undefined;
  if (globalLimiter) {
    await app.register(limiterLibrary);
    globalLimit = globalLimitCheck(app, globalLimiter);
  }
  await app.register(watchFace, { watches, databases, globalLimit, site });

  for (const path of FACE_PATHS) {
    app.route({
      method: ['GET', 'HEAD'],
      url: path.url,
      // `?ip=` is checked by the public-IP guard's rules, with its words, not by the schema's.
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: path.summary,
        querystring: AddressQuery,
        response: RESPONSES[path.url] ?? lineAnswers(path.summary),
      },
      handler: async (request, reply) => {
        const format = commandLineFormat(request.headers);
        if (!format) return site(request, reply);
        const refusals = { tooMany: () => tooManyRequests(path, format), failed: () => internalFailure(path, format) };
        if (!(await underLimit(globalLimit, request, reply, refusals))) return;
        sendAnswer(
          reply.raw,
          answerOrFailure({ path, format }, request.raw, () => clientIp(request), databases, request.log),
        );
      },
    });
  }
};

export default commandLine;
