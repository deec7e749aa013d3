// @ts-check
// `npm run build`'s first and last steps (prebuild, postbuild): every
// successful build, whoever runs it, records the digest of the sources it
// was made from, so npm start then finds dist/ up to date instead of
// building again. The digest is taken before the build: an edit made while
// it runs still counts as a change next time. A build that fails never
// reaches its last step and leaves no record, so the next start builds.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { inputsDigest, PENDING_STAMP, STAMP } from './build-inputs.mjs';

const step = process.argv[2];
if (step === 'before') {
  rmSync(STAMP, { force: true });
  mkdirSync(dirname(PENDING_STAMP), { recursive: true });
  writeFileSync(PENDING_STAMP, inputsDigest());
} else if (step === 'after') {
  renameSync(PENDING_STAMP, STAMP);
} else {
  process.stderr.write('usage: node bin/build-stamp.mjs before|after\n');
  process.exitCode = 2;
}
