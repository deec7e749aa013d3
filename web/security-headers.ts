import type { OutgoingHttpHeaders } from 'node:http';

/**
 * The site's Content-Security-Policy: everything from our own origin, no
 * inline script or style (the build links its one script and stylesheet; Vue's
 * style bindings go through CSSOM, which CSP does not govern), images also as
 * `data:` URLs, and no page of any other origin may frame ours (clickjacking,
 * and the gated API calls a framed page would make on a visitor's behalf).
 *
 * Keep it this strict as the site grows: a tool that calls a third party from
 * the browser lists exactly that origin in the one directive it needs
 * (`connect-src 'self' https://probe.example`), never a wildcard. WebRTC needs
 * no directive here: CSP does not govern its connections.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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

/** On every HTML answer of the front listener: the above, the CSP, and X-Frame-Options for browsers without frame-ancestors. */
export const HTML_HEADERS: Readonly<OutgoingHttpHeaders> = Object.freeze({
  ...FRONT_HEADERS,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
});

/** The security headers an answer of `contentType` carries on the front listener. */
export function securityHeadersFor(contentType: string): Readonly<OutgoingHttpHeaders> {
  return contentType.startsWith('text/html') ? HTML_HEADERS : FRONT_HEADERS;
}
