/** What a probe finds: an answer, a failure, or nothing within PROBE_TIMEOUT_MS. */
export type ProbeStatus = 'ok' | 'unreachable' | 'timeout';
export interface ProbeResult {
  status: ProbeStatus;
  /** From the request's start to its answer (ok), its failure (unreachable) or the limit (timeout). */
  timeMs: number;
}

/** A site that has not answered by then is given up on (MyIP's 3 × 1200 ms). */
export const PROBE_TIMEOUT_MS = 3600;
