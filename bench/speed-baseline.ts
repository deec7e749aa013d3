import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

// The yardstick for the speed endpoints: bare node:http in its own process,
// sending the same kind of bytes (random, from memory) for GET /down?bytes=N
// and counting and dropping a POST /up body, with no framework, gate or limit.
const port = Number(process.env.BASELINE_PORT ?? 0);
const LARGEST = 100_000_000;
const bytes = randomBytes(LARGEST);

createServer((req, res) => {
  if (req.method === 'POST') {
    let received = 0;
    req.on('data', (chunk: Buffer) => (received += chunk.length));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ bytes: received }));
    });
    return;
  }
  const size = Math.min(LARGEST, Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes')) || 0);
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': size,
    'cache-control': 'no-store',
  });
  res.end(bytes.subarray(0, size));
}).listen(port, '127.0.0.1');
