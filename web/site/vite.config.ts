import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import VueI18nPlugin from '@intlify/unplugin-vue-i18n/vite';
import { countryNames } from './country-names-plugin.ts';
import { countryFlags } from './flags-plugin.ts';
import { installable } from './pwa.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The site builds into dist/site, which the front listener serves when
// FRONTEND_DIR is empty. `npm run build:site` runs this config.
export default defineConfig({
  root: here('.'),
  // The schemas the service answers with (contract/), which the site imports as types through this one name.
  resolve: { alias: { '@contract': here('../../contract') } },
  plugins: [
    vue(),
    // Messages become code at build time; the runtime-only vue-i18n then needs no compiler.
    VueI18nPlugin({
      include: [here('src/locales/*.json'), here('src/features/*/strings/*.json')],
      runtimeOnly: true,
      compositionOnly: true,
      fullInstall: false,
      dropMessageCompiler: true,
    }),
    countryNames(),
    countryFlags(),
    installable(),
  ],
  define: {
    // Compile-time switches of Vue: the features the site does not use
    // (Options API, devtools hooks) leave the bundle. The i18n plugin sets vue-i18n's.
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    // The error-reporting SDK's debug messages (its own switch): off, so its chunk is smaller.
    __SENTRY_DEBUG__: 'false',
  },
  build: {
    outDir: here('../../dist/site'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rolldownOptions: {
      // A slow plugin is no news on a busy machine; this warning added eight
      // lines to `npm start`'s output, which must stay short.
      checks: { bundlerTimings: false },
      output: {
        // Everything the first page needs (Vue, vue-router, vue-i18n, the frame, the home page) in one file: left
        // to itself the bundler split it three ways, and a first visit over HTTP/1.1 then waited for two more
        // connections before the page could paint. The other pages stay chunks of their own.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    // `vite` on its own (development) hands /api to a running service.
    proxy: { '/api': { target: process.env.SITE_API_ORIGIN ?? 'http://127.0.0.1:18966', changeOrigin: false } },
  },
});
