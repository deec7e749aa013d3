import type { MeasurementConfig } from '@cloudflare/speedtest';

export const MB = 1_000_000;

/** The sizes a visitor may pick, in MB: the reference site's, with 25 in place of 15. */
export const SIZE_CHOICES_MB = [1, 10, 25, 50, 100] as const;

export type Target = 'server' | 'cloudflare';

/** Where each target's bytes come from and go to (Cloudflare's as speed.cloudflare.com itself calls them). */
export const ENDPOINTS: Record<Target, { down: string; up: string }> = {
  server: { down: '/speed/down', up: '/speed/up' },
  cloudflare: { down: 'https://speed.cloudflare.com/__down', up: 'https://speed.cloudflare.com/__up' },
};

/** The largest size a target takes: this server's caps (its public settings); Cloudflare's are above our choices. */
export function sizeChoices(capBytes: number | undefined): number[] {
  const fit = SIZE_CHOICES_MB.map((mb) => mb * MB).filter((bytes) => capBytes === undefined || bytes <= capBytes);
  // A server capped below the smallest choice still offers its cap.
  return fit.length ? fit : capBytes ? [capBytes] : [];
}

/** `preferred`, or the largest choice below it. */
export function pickSize(choices: number[], preferred: number): number {
  return choices.filter((bytes) => bytes <= preferred).pop() ?? choices[0] ?? 0;
}

// Each direction ramps up through these sizes up to the one picked; the engine
// stops a direction's ramp once a request lasts a second, so a slow line never
// waits for the largest size, and a fast one gets requests long enough to measure.
const LADDER = [100_000, 1_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000];

/** The engine's measurements for a run that downloads at most `down` and uploads at most `up` bytes a request. */
export function measurementPlan(down: number, up: number): MeasurementConfig[] {
  const steps = (largest: number) => [...LADDER.filter((bytes) => bytes < largest), largest];
  const plan: MeasurementConfig[] = [
    { type: 'latency', numPackets: 1 },
    { type: 'download', bytes: Math.min(100_000, down), count: 1, bypassMinDuration: true },
    { type: 'latency', numPackets: 20 },
  ];
  const downs = steps(down);
  const ups = steps(up);
  for (let i = 0; i < Math.max(downs.length, ups.length); i++) {
    if (downs[i]) plan.push({ type: 'download', bytes: downs[i]!, count: i === downs.length - 1 ? 4 : 3 });
    if (ups[i]) plan.push({ type: 'upload', bytes: ups[i]!, count: i === ups.length - 1 ? 4 : 3 });
  }
  return plan;
}
