import { VitePWA } from 'vite-plugin-pwa';
import { CHUNK_CACHE } from './src/lib/storage-keys.js';

// Workbox tests a navigation's path and query string against these. The service's own answers that are not
// pages (operations/), and a path whose last segment has a file extension (web/cache-class.ts's rule, but
// as long as `.webmanifest`), must reach the service.
export const NOT_PAGES = [
  /^\/(api(\/|\?|$)|(healthz|readyz|metrics)(\?|$))/,
  /^[^?]*\/[^/?]*\.[A-Za-z][A-Za-z0-9]{0,15}(\?|$)/,
];

/**
 * Installable: the web app manifest and a service worker (Workbox) that keeps the shell
 * (index.html, the first page's one script and stylesheet, the icon) for offline use and every
 * other page's chunk once it was loaded. The service's answers (/api, /site-settings.json) are
 * never handled by it: no route of the worker matches them, so the browser asks the network
 * as if there were no worker. web/site/README.md "Installable".
 */
export function installable() {
  return VitePWA({
    // A new build takes over at once (skipWaiting, clientsClaim); a page already open keeps what it
    // loaded and gets the new version on its next load. Nothing a visitor types is kept in a page that
    // a prompt would have to protect.
    registerType: 'autoUpdate',
    // registerSW.js, a file: the CSP refuses inline scripts. Deferred: it only registers the worker at the
    // window's load, and as a plain script in the head it held the first paint for one more round trip.
    injectRegister: 'script-defer',
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      id: '/',
      name: 'Netdiag: network diagnostics',
      short_name: 'Netdiag',
      description: 'Your IP address, WHOIS, DNS, AS networks, routing history, censorship and service status.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      // The manifest has one pair; index.html's theme-color tags give the dark scheme its own.
      theme_color: '#f7f8fa',
      background_color: '#f7f8fa',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    // The manifest's icons are fetched by the browser when it installs, not by every visitor.
    includeManifestIcons: false,
    workbox: {
      // The shell alone is fetched at install: the other pages' chunks would double a first visit's bytes.
      globPatterns: ['index.html', 'assets/index-*.{js,css}', 'favicon.svg'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: NOT_PAGES,
      cleanupOutdatedCaches: true,
      // What registerType 'autoUpdate' means; the plugin sets these only for its own registration code.
      skipWaiting: true,
      clientsClaim: true,
      // One file fewer to fetch at install; the runtime is a few kilobytes.
      inlineWorkboxRuntime: true,
      // The address watch's push notices (public/watch-push.js): the one worker a page may have takes them too.
      importScripts: ['watch-push.js'],
      runtimeCaching: [
        {
          // Content-hashed (immutable): a kept copy is always right, so it is used without asking.
          urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: { cacheName: CHUNK_CACHE, expiration: { maxEntries: 120 } },
        },
      ],
    },
  });
}
