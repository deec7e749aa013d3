import { once } from 'node:events';
import { createServer } from 'node:http';

// Stand-ins for the connectivity test's first list (CONNECTIVITY_TARGETS):
// one web server on loopback answering every name under it with a favicon,
// each name standing for one of the reference's seven sites.

/** The reference's seven, by the name the page shows and the host standing for each. */
export const STOOD_FOR: ReadonlyArray<{ name: string; host: string }> = [
  { name: 'Google', host: 'google' },
  { name: 'YouTube', host: 'youtube' },
  { name: 'GitHub', host: 'github' },
  { name: 'Cloudflare', host: 'cloudflare' },
  { name: 'Claude', host: 'claude' },
  { name: 'ChatGPT', host: 'chatgpt' },
  { name: 'WeChat', host: 'wechat' },
];

// The smallest icon: a 1×1 transparent GIF (a probe only needs an answer; no-cors never reads it).
const ICON = Buffer.from('R0lGODlhAQABAAAAACH5BAEAAAAALAAAAAABAAEAAAI=', 'base64');

export interface ConnectivitySites {
  /** CONNECTIVITY_TARGETS naming them: `Name=http://<host>.sites.localhost:<port>/favicon.ico`, comma-separated. */
  setting: string;
  /** Where they answer, for the banner. */
  origin: string;
  close(): Promise<void>;
}

/** The stand-ins on loopback at `port`, under `*.sites.localhost` (browsers resolve every *.localhost to loopback). */
export async function startConnectivitySites(port: number): Promise<ConnectivitySites> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' });
    response.end(ICON);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    setting: STOOD_FOR.map(({ name, host }) => `${name}=http://${host}.sites.localhost:${port}/favicon.ico`).join(','),
    origin: `http://*.sites.localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
