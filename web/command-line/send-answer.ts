import type { ServerResponse } from 'node:http';
import { FRONT_HEADERS } from '../security-headers.js';
import type { Answer } from './answer.js';

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const {
  'x-content-type-options': nosniff,
  'referrer-policy': referrer,
  'permissions-policy': permissions,
} = FRONT_HEADERS;

/**
 * Writes an answer on the raw response, with the front listener's shared
 * headers; never stored (each answer is the caller's own) and varying on the
 * two headers that chose it. A HEAD gets the headers alone (Node drops the body).
 */
export function sendAnswer(res: ServerResponse, { status, json, body }: Answer): void {
  res.writeHead(status, {
    'content-type': json ? JSON_TYPE : TEXT,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    vary: 'User-Agent, Accept',
    'x-content-type-options': nosniff,
    'referrer-policy': referrer,
    'permissions-policy': permissions,
  });
  res.end(body);
}
