import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The site builds into dist/site, which the front listener serves when
// FRONTEND_DIR is empty. `npm run build:site` runs this config.
export default defineConfig({
  root: here('.'),
  plugins: [vue()],
  define: {
    // Compile-time switches of Vue and vue-i18n: the features the site does not
    // use (Options API, legacy i18n API, devtools hooks) leave the bundle.
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'false',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
    __INTLIFY_DROP_MESSAGE_COMPILER__: 'false',
  },
  build: {
    outDir: here('../../dist/site'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    // `vite` on its own (development) hands /api to a running service.
    proxy: { '/api': { target: process.env.SITE_API_ORIGIN ?? 'http://127.0.0.1:18966', changeOrigin: false } },
  },
});
