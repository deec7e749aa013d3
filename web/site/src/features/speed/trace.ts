/** Cloudflare's `/cdn-cgi/trace` text: `key=value` lines, split at the first `=` and trimmed. */
export function parseTrace(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export interface TraceFacts {
  /** The visitor's address as Cloudflare sees it. */
  ip?: string;
  /** The data centre that answered, an airport code (`FRA`). */
  colo?: string;
  /** The visitor's country as Cloudflare places it. */
  loc?: string;
}

/** The facts the speed test shows, each only when it has the shape it should. */
export function traceFacts(text: string): TraceFacts {
  const t = parseTrace(text);
  return {
    ip: t.ip && /^[0-9a-f.:]{2,45}$/i.test(t.ip) ? t.ip : undefined,
    colo: t.colo && /^[A-Z]{3,8}$/.test(t.colo) ? t.colo : undefined,
    loc: t.loc && /^[A-Z]{2}$/.test(t.loc) ? t.loc : undefined,
  };
}
