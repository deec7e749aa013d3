import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

// flag-icons' 4:3 flags, one SVG per country (two-letter files only: its subdivision and organisation flags are
// not needed), copied to /flags/ beside the build. A country's flag is fetched when a page shows it; none is in a bundle.
const FLAGS = join(dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')), 'flags', '4x3');
const COUNTRY_FILE = /^[a-z]{2}\.svg$/;

export function countryFlags(): Plugin {
  return {
    name: 'country-flags',
    generateBundle() {
      for (const file of readdirSync(FLAGS).filter((name) => COUNTRY_FILE.test(name))) {
        this.emitFile({ type: 'asset', fileName: `flags/${file}`, source: readFileSync(join(FLAGS, file)) });
      }
    },
    // `vite` on its own (development) answers the same URLs from the package.
    configureServer(server) {
      server.middlewares.use('/flags', (req, res, next) => {
        const file = (req.url ?? '').slice(1).split('?', 1)[0] ?? '';
        if (!COUNTRY_FILE.test(file)) return next();
        res.setHeader('Content-Type', 'image/svg+xml');
        createReadStream(join(FLAGS, file))
          .on('error', () => next())
          .pipe(res);
      });
    },
  };
}
