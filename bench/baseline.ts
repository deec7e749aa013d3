import { createServer } from 'node:http';

// The yardstick every ratio is measured against: plain node:http sending the
// same JSON body as /api/configs, in its own process like the real server.
const body = process.env.BASELINE_BODY ?? '{}';
const port = Number(process.env.BASELINE_PORT ?? 0);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' });
  res.end(body);
}).listen(port, '127.0.0.1');
