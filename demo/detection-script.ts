import { once } from 'node:events';
import { createServer } from 'node:http';

// A stand-in for the proxy-detection script's origin (INVISIBILITY_SCRIPT_ORIGIN),
// which the proxy detection page loads in the browser: the real script reports
// what it measures to the companion, whose answer the demo's fake private API
// gives from its fixture whatever the script did, so an empty script is all
// the page needs to run.

export interface DetectionScript {
  /** The origin as INVISIBILITY_SCRIPT_ORIGIN names it. */
  origin: string;
  close(): Promise<void>;
}

export async function startDetectionScript(port: number): Promise<DetectionScript> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end('');
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
