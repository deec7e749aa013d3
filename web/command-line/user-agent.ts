/** The User-Agent as the ifconfig.co engine reports it back: its product, version and the rest, and the header as sent. */
export interface UserAgent {
  product: string;
  version?: string;
  comment?: string;
  raw_value: string;
}

/**
 * Splits a User-Agent the way the ifconfig.co engine does, so scripts reading
 * its `user_agent` keep working: `curl/8.5.0` is product `curl`, version
 * `8.5.0`; what follows the version (or a slash part not starting with a
 * digit, or what follows the first space when there is no slash) is the comment.
 */
export function parseUserAgent(raw: string): UserAgent {
  const slash = raw.indexOf('/');
  let product = raw;
  let version = '';
  let comment = '';
  if (slash >= 0) {
    product = raw.slice(0, slash);
    const rest = raw.slice(slash + 1);
    if (/^\d/.test(rest)) {
      const space = rest.indexOf(' ');
      version = space < 0 ? rest : rest.slice(0, space);
      comment = space < 0 ? '' : rest.slice(space + 1);
    } else {
      comment = rest;
    }
  } else {
    const space = raw.indexOf(' ');
    if (space >= 0) {
      product = raw.slice(0, space);
      comment = raw.slice(space + 1);
    }
  }
  return {
    product,
    ...(version ? { version } : {}),
    ...(comment ? { comment } : {}),
    raw_value: raw,
  };
}
