import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { callerAddress, clientIp } from '../../lib/client-ip.js';
import type { LentToFront } from '../../lib/lent-to-front.js';
import clientIpSlots from '../../plugins/client-ip.js';
import { TooManyRequests } from '../../plugins/rate-limit.js';
import { answerFor, ipParameter, tooManyRequests } from './answer.js';
import { commandLineFormat } from './client.js';
import { FACE_PATHS, type FaceRequest } from './paths.js';
import { AddressQuery, jsonAnswers, lineAnswers, rootAnswers } from './schemas.js';
import { sendAnswer } from './send-answer.js';

export { faceRequest } from './paths.js';

export interface CommandLineOptions {
  /** The API's global limiter and local databases. */
  lent: LentToFront;
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
export function answerInListener(req: IncomingMessage, res: ServerResponse, face: FaceRequest, lent: LentToFront) {
  const url = req.url ?? '/';
  const caller = callerAddress(req.headers, req.socket.remoteAddress);
  sendAnswer(res, answerFor(face.path, face.format, ipParameter(url), caller, req.headers['user-agent'], lent));
}

/**
 * The command-line face (docs/command-line.md): the paths of the ifconfig.co
 * engine, answered from the local databases only, for command-line clients;
 * a browser on the same paths gets the site. The API's global limiter counts
 * these requests as it counts /api's, under the same key.
 */
const commandLine: FastifyPluginAsync<CommandLineOptions> = async (app, { lent, site }) => {
  await app.register(clientIpSlots);

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
        try {
          await lent.globalLimit?.(request, reply);
        } catch (err) {
          if (!(err instanceof TooManyRequests)) throw err;
          reply.hijack();
          // The limiter's Retry-After, set on the reply, goes out with the raw answer.
          const retryAfter = reply.getHeader('retry-after');
          if (retryAfter !== undefined) reply.raw.setHeader('retry-after', retryAfter);
          return sendAnswer(reply.raw, tooManyRequests(path, format));
        }
        reply.hijack();
        const caller = clientIp(request);
        sendAnswer(
          reply.raw,
          answerFor(path, format, ipParameter(request.url), caller, request.headers['user-agent'], lent),
        );
      },
    });
  }
};

export default commandLine;
