import { readFileSync } from 'node:fs';

// Where /proc/self/limits cannot be read (not Linux): the usual soft limit,
// low enough that the shares below fit under most systems' real one.
const FALLBACK_OPEN_FILES = 1024;
// Past these, memory and the resolvers' and providers' own limits bind long
// before descriptors do; more would only queue work outside the process.
const MAX_CONNECTIONS_PER_ORIGIN = 1024;
const MAX_DNS_QUERIES = 512;

/**
 * How the open-files limit is shared, so the table never fills from our own
 * work: a quarter for each listener's connections, a quarter for outbound
 * sockets (an origin takes an eighth of it; outside DNS questions at once,
 * plain and DoH, half of it), and a quarter left for everything else (the
 * process's own descriptors, files served, datasets, Redis, the log).
 */
export interface DescriptorBudget {
  openFiles: number;
  /** Connections one listener holds at once; a new one past it is closed as it arrives. */
  connectionsPerListener: number;
  /** Sockets the upstream client opens to one origin; more requests wait for one, within their timeout. */
  connectionsPerOrigin: number;
  /** Outside DNS questions asked at once; more wait for a turn, within their deadline. */
  dnsQueries: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function descriptorBudget(openFiles: number): DescriptorBudget {
  const quarter = Math.floor(openFiles / 4);
  return {
    openFiles,
    connectionsPerListener: Math.max(1, quarter),
    connectionsPerOrigin: clamp(Math.floor(quarter / 8), 1, MAX_CONNECTIONS_PER_ORIGIN),
    dnsQueries: clamp(Math.floor(quarter / 2), 1, MAX_DNS_QUERIES),
  };
}

/**
 * The process's open-files limit: the soft one, which Node raises to the hard
 * one as it starts. "unlimited" counts as the largest number; an unreadable
 * or unexpected file as the fallback.
 */
export function openFilesLimit(limitsFile = '/proc/self/limits'): number {
  let text: string;
  try {
    text = readFileSync(limitsFile, 'utf8');
  } catch {
    return FALLBACK_OPEN_FILES;
  }
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)?.[1];
  if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
  return soft ? Number(soft) : FALLBACK_OPEN_FILES;
}

/** This process's budget, read once at start. */
export const DESCRIPTORS = descriptorBudget(openFilesLimit());
