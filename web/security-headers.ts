import type { OutgoingHttpHeaders } from 'node:http';

/**
 * The site's Content-Security-Policy: scripts and styles from our own origin
 * only, no inline script or style (the build links its one script and
 * stylesheet; Vue's style bindings go through CSSOM, which CSP does not
 * govern), images also as `data:` URLs, and no page of any other origin may
 * frame ours (clickjacking, and the gated API calls a framed page would make
 * on a visitor's behalf).
 *
 * `connect-src` is the one open directive: the browser tools measure the
 * visitor's own path to other sites (connectivity to any HTTPS site the
 * visitor adds, leak-test providers, speed and probe services), so it allows
 * any HTTPS origin, plus the plain-HTTP origins the operator's settings name
 * (`extraConnect`). An injected script still cannot run: script-src stays
 * 'self', plus only the third-party script origins the operator switched on
 * (`extraScript`: the proxy-detection script, which must run in the page to
 * measure it). WebRTC needs no directive: CSP does not govern its connections.
 */
export function contentSecurityPolicy(
  extraConnect: readonly string[] = [],
  extraScript: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...extraScript].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    ["connect-src 'self' https:", ...extraConnect].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// Every powerful feature the site does not use is switched off for it and for
// anything it might embed; WebRTC is not a permission, so future tools that use
// it are unaffected.
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * On every answer of the front listener. The Referer policy is the browsers'
 * default written down: same-origin requests keep the full Referer, which the
 * API's Referer gate needs; other origins get the origin alone, and none over
 * a downgrade to http.
 */
export const FRONT_HEADERS: Readonly<OutgoingHttpHeaders> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': PERMISSIONS_POLICY,
});

/** The security headers of the front listener's answers, for one set of connect sources. */
export interface SecurityHeaders {
  /** On every HTML answer: FRONT_HEADERS, the CSP, and X-Frame-Options for browsers without frame-ancestors. */
  html: Readonly<OutgoingHttpHeaders>;
  /** The headers an answer of `contentType` carries. */
  forType(contentType: string): Readonly<OutgoingHttpHeaders>;
}

export function securityHeaders(
  extraConnect: readonly string[] = [],
  extraScript: readonly string[] = [],
): SecurityHeaders {
  const html = Object.freeze({
    ...FRONT_HEADERS,
    'content-security-policy': contentSecurityPolicy(extraConnect, extraScript),
    'x-frame-options': 'DENY',
  });
  return { html, forType: (contentType) => (contentType.startsWith('text/html') ? html : FRONT_HEADERS) };
}
