import { parseIp } from '../../../lib/network/ip-address.js';

/**
 * The addresses the demo's fakes hold data for, named by the demo's banner.
 * Every geolocation source answers each of them from its own fixture, in
 * agreement with the sample databases (same country, same network), and the
 * registry the RDAP bootstrap names answers with the address's own network.
 * Any other address gets each source's answer for an address it knows
 * nothing about and a 404 from every registry, so no fake invents data.
 */
export const DEMO_ADDRESSES = ['8.8.8.8', '1.1.1.1', '2a01:4f8:c0c:1234::1', '193.0.6.139'] as const;
export type DemoAddress = (typeof DEMO_ADDRESSES)[number];

const BY_TEXT = new Map<string, DemoAddress>(DEMO_ADDRESSES.map((a) => [parseIp(a)!.toString(), a]));

/** The demo address `value` spells (an IPv6 address in any case or compression); undefined for any other. */
export function demoAddress(value: string | null): DemoAddress | undefined {
  const parsed = value === null ? undefined : parseIp(value);
  return parsed && BY_TEXT.get(parsed.toString());
}
