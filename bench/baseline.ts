import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';

// The yardstick every ratio is measured against: plain node:http sending the
// same JSON body as /api/configs, in its own process like the real server,
// and, for the cases that ask (BenchCase.sameBytes), each case's own answer
// under /same/<n>: both read into memory once.
const body = process.env.BASELINE_BODY ?? '{}';
const port = Number(process.env.BASELINE_PORT ?? 0);

interface Answer {
  path: string;
  headers: OutgoingHttpHeaders;
  bodyFile: string;
}
const answers = new Map<string, { headers: OutgoingHttpHeaders; body: Buffer }>();
const listed = process.env.BASELINE_ANSWERS
  ? (JSON.parse(readFileSync(process.env.BASELINE_ANSWERS, 'utf8')) as Answer[])
  : [];
for (const { path, headers, bodyFile } of listed) answers.set(path, { headers, body: readFileSync(bodyFile) });

createServer((req, res) => {
  const answer = answers.get(req.url ?? '/');
  if (answer) {
    res.writeHead(200, answer.headers);
    res.end(answer.body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' });
  res.end(body);
}).listen(port, '127.0.0.1');
