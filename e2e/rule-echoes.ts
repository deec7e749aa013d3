import type { Page } from '@playwright/test';
import { json, type ThirdParty } from './third-party.js';

// The proxy rule test's built-in echo services, faked: shared by the specs that open /rules.

export const HOSTS = [
  'api4.ipify.org',
  'ipv4.myexternalip.com',
  'speed.cloudflare.com',
  'myip.ipip.net',
  'pubstatic.b0.upaiyun.com',
  'api6.ipify.org',
  'ipv6.myexternalip.com',
] as const;

/** Each built-in echo service answers `exit` (or the address given for its host). */
export async function echoesAnswer(page: Page, thirdParty: ThirdParty, exit: string, own: Record<string, string> = {}) {
  const ip = (host: string) => own[host] ?? exit;
  for (const host of HOSTS) {
    thirdParty.on(host, (_req, res) => {
      if (host === 'speed.cloudflare.com') {
        res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
        return res.end(`fl=1\nip=${ip(host)}\nloc=DE\n`);
      }
      if (host === 'myip.ipip.net') return json(res, { ret: 'ok', data: { ip: ip(host) } });
      if (host === 'pubstatic.b0.upaiyun.com') return json(res, { remote_addr: ip(host) });
      return json(res, { ip: ip(host) });
    });
  }
  // IP-literal URLs are never resolved, so the resolver rules cannot send them to the fake.
  await page.route('https://1.0.0.1/cdn-cgi/trace', (route) =>
    route.fulfill({ headers: { 'access-control-allow-origin': '*' }, body: `ip=${ip('1.0.0.1')}\nloc=DE\n` }),
  );
}
