import type { Page } from '@playwright/test';
import { json, type ThirdParty } from './third-party.js';

// Every third party the quick tools call, answering as its real service would,
// for npm run screenshots: the address detectors and echo services see the
// demo's visitor, the DNS-leak providers name one resolver in the Netherlands
// (so the page shows its leak verdict), and any other host (a connectivity
// target) answers its favicon.
const V4 = '8.8.8.8';
const V6 = '2001:4860:4860::8888';
const LEAK_RESOLVER = '193.0.0.10';
const RESOLVER = '8.8.8.53';

export const DNS_LEAK_PROVIDERS = {
  ipapi: /\.edns\.ip-api\.com$/,
  surfshark: /\.ipv4\.surfsharkdns\.com$/,
  ipleak: /-1\.ipleak\.net$/,
  fastly: /\.u\.fastly-analytics\.com$/,
} as const;

function trace(ip: string): string {
  return `fl=1\nip=${ip}\nloc=US\ncolo=EWR\n`;
}

export function answerTools(thirdParty: ThirdParty): void {
  thirdParty.on(/./, (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/x-icon', 'access-control-allow-origin': '*' });
    response.end(Buffer.from([0, 0, 1, 0]));
  });
  for (const host of ['api4.ipify.org', 'ipv4.myexternalip.com']) {
    thirdParty.on(host, (_q, res) => json(res, { ip: V4 }));
  }
  for (const host of ['api6.ipify.org', 'ipv6.myexternalip.com']) {
    thirdParty.on(host, (_q, res) => json(res, { ip: V6 }));
  }
  thirdParty.on('myip.ipip.net', (_q, res) => json(res, { ret: 'ok', data: { ip: V4, location: ['美国'] } }));
  thirdParty.on('pubstatic.b0.upaiyun.com', (_q, res) => json(res, { remote_addr: V4 }));
  thirdParty.on('speed.cloudflare.com', (request, response) => {
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    response.end(request.url?.includes('trace') ? trace(V4) : '');
  });
  thirdParty.on(DNS_LEAK_PROVIDERS.ipapi, (_q, res) => json(res, { dns: { ip: LEAK_RESOLVER, geo: 'x' } }));
  thirdParty.on(DNS_LEAK_PROVIDERS.surfshark, (req, res) =>
    json(res, { [req.headers.host ?? '']: { Country: 'x', IP: RESOLVER, ISP: 'y' } }),
  );
  thirdParty.on(DNS_LEAK_PROVIDERS.ipleak, (_q, res) => json(res, { ip: { [RESOLVER]: 3 } }));
  thirdParty.on(DNS_LEAK_PROVIDERS.fastly, (_q, res) => json(res, { dns_resolver_info: { ip: RESOLVER } }));
}

/**
 * Cloudflare's traces by address literal, which no resolver rule can send to
 * the fake. On the pages that ask them only: with a route in place, Chromium
 * fails the connectivity page's requests to hosts on the HSTS preload list,
 * which the fake's throw-away certificate cannot serve.
 */
export async function answerAddressLiterals(page: Page): Promise<void> {
  const cors = { 'access-control-allow-origin': '*' };
  await page.route('https://1.0.0.1/cdn-cgi/trace', (route) => route.fulfill({ headers: cors, body: trace(V4) }));
  await page.route('https://[2606:4700:4700::1111]/cdn-cgi/trace', (route) =>
    route.fulfill({ headers: cors, body: trace(V6) }),
  );
}
