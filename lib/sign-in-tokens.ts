import {
  createRemoteJWKSet,
  customFetch,
  errors,
  jwtVerify,
  type FetchImplementation,
  type JWTVerifyGetKey,
} from 'jose';
import { HttpError } from './http-error.js';
import type { Upstream } from './upstream.js';
import { redactUrl } from './logger.js';
import { UpstreamFailure, UpstreamError } from './upstream-failure.js';

/** 401: a sign-in token the issuer did not sign for this site, or that no longer holds (routes/private-tools/README.md). */
export const INVALID_TOKEN = 'Invalid token';
/** 503: the issuer's keys could not be had, so no token can be told good or bad. */
export const SIGN_IN_CHECK_UNAVAILABLE = 'Sign-in check unavailable';

/** The metrics' name for the issuer, whose host (OIDC_ISSUER) is the operator's to keep. */
const ISSUER_PROVIDER = 'oidc-issuer';

// A visitor's clock does not matter (the issuer stamps the token), but ours
// and the issuer's may drift apart by a few seconds; half a minute covers
// that and keeps an expired token out.
const CLOCK_TOLERANCE_S = 30;

// Where the issuer's key set lives changes rarely; the keys themselves are
// jose's to refresh (a token naming a key it has not seen reloads the set,
// at most every 30 s).
const DISCOVERY_KEEP_MS = 60 * 60 * 1000;

// The site is a public client: it has no secret, so only the issuer's
// published asymmetric keys can sign its ID token. A symmetric algorithm or
// `none` is refused before any key is looked up.
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const BEARER = /^Bearer +([^\s]+)$/i;

export interface SignInTokenSettings {
  /** OIDC_ISSUER; empty: no check, the header passes as it is. */
  issuer: string;
  /** OIDC_CLIENT_ID: the audience of the ID token the site sends. */
  audience: string;
  /** A client that reaches the issuer where the setting says, as the visitor's browser does. */
  upstream: Upstream;
}

/**
 * Checks the caller's sign-in token before a private route spends the
 * companion API's quota (routes/private-tools/README.md, "Sign-in tokens"): with an
 * issuer configured, an `Authorization` header must be `Bearer <ID token>`
 * signed by one of the issuer's published keys, for this site's client, and
 * within its lifetime. The keys come from the issuer's discovery document.
 */
export class SignInTokens {
  private keySet?: { uri: string; keys: JWTVerifyGetKey };

  constructor(private readonly settings: SignInTokenSettings) {}

  get enabled(): boolean {
    return this.settings.issuer !== '';
  }

  /**
   * Resolves when the header may be forwarded: no issuer configured, no
   * header (the companion then answers a signed-out caller), or a good token,
   * whose subject it gives (undefined for the other two).
   * Throws HttpError 401 `Invalid token` for anything else, and an
   * UpstreamFailure 503 when the issuer's keys cannot be had (fail closed).
   */
  async check(authorization: string | undefined): Promise<string | undefined> {
    if (!this.enabled || authorization === undefined) return undefined;
    const token = BEARER.exec(authorization)?.[1];
    if (!token) throw new HttpError(401, INVALID_TOKEN);
    try {
      const { payload } = await jwtVerify(token, this.keyFor, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'sub'],
      });
      return payload.sub;
    } catch (err) {
      if (err instanceof UpstreamFailure) throw err;
      if (err instanceof errors.JOSEError) throw new HttpError(401, INVALID_TOKEN);
      throw err;
    }
  }

  /** The key a well-formed token names; any failure to get the issuer's keys becomes the 503. */
  private readonly keyFor: JWTVerifyGetKey = async (header, token) => {
    const keys = await this.keys().catch((err: unknown) => {
      throw this.unavailable(err);
    });
    try {
      return await keys(header, token);
    } catch (err) {
      // jose's own verdicts on the token (no key of that id, an unsupported
      // key type) are the token's fault; a failed or odd key-set answer is not.
      if (!(err instanceof errors.JOSEError) || keySetFailed(err)) throw this.unavailable(err);
      throw err;
    }
  };

  /** jose's remote key set for the `jwks_uri` the discovery document names, made again only if that changes. */
  private async keys(): Promise<JWTVerifyGetKey> {
    const uri = await this.jwksUri();
    if (this.keySet?.uri !== uri) {
      const keys = createRemoteJWKSet(new URL(uri), {
        timeoutDuration: this.settings.upstream.timeoutMs,
        [customFetch]: this.fetchThroughUpstream,
      });
      this.keySet = { uri, keys };
    }
    return this.keySet.keys;
  }

  /** The discovery document's `jwks_uri`, shared by concurrent checks and kept for an hour (a failure briefly). */
  private async jwksUri(): Promise<string> {
    const { issuer } = this.settings;
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const usable = (data: unknown): data is { issuer: string; jwks_uri: string } => {
      const doc = data as { issuer?: unknown; jwks_uri?: unknown } | null;
      return doc?.issuer === issuer && typeof doc.jwks_uri === 'string' && URL.canParse(doc.jwks_uri);
    };
    const data = await this.settings.upstream.okJson(url, {
      keepForMs: DISCOVERY_KEEP_MS,
      keepIf: usable,
      provider: ISSUER_PROVIDER,
    });
    // OpenID Connect Discovery §4.3: the document must name the very issuer it was asked for.
    if (!usable(data)) throw new UpstreamError('the discovery document names another issuer or no usable jwks_uri');
    return data.jwks_uri;
  }

  /** jose's fetch, made through our one client: its User-Agent, body cap and metrics. */
  private readonly fetchThroughUpstream: FetchImplementation = async (url, { headers, signal }) => {
    const answer = await this.settings.upstream.bytes(url, {
      headers: Object.fromEntries(headers),
      signal,
      provider: ISSUER_PROVIDER,
    });
    return new Response(answer.status === 200 ? new Uint8Array(answer.bytes) : null, { status: answer.status });
  };

  private unavailable(err: unknown): UpstreamFailure {
    return new UpstreamFailure(
      { status: 503, error: SIGN_IN_CHECK_UNAVAILABLE },
      "sign-in tokens cannot be checked, so every private route called with one answers 503: the issuer's keys did not load; check that OIDC_ISSUER is this provider's issuer URL and that it answers",
      { err, issuer: redactUrl(this.settings.issuer) },
    );
  }
}

/** jose's errors about fetching or reading the key set, as opposed to its verdicts on a token. */
function keySetFailed(err: errors.JOSEError): boolean {
  return err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || err.code === 'ERR_JOSE_GENERIC';
}
