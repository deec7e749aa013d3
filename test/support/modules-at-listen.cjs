// Preloaded into a server under test (NODE_OPTIONS=--require): when the
// process first asks to listen, it writes the CommonJS modules loaded by then,
// one path a line, to the file MODULES_AT_LISTEN names. The packages a start
// loads before it listens are what every start pays for; the ES module loader
// puts a CommonJS package it imports in require.cache too.
'use strict';
const { writeFileSync } = require('node:fs');
const { Server } = require('node:net');

const listen = Server.prototype.listen;
let written = false;
Server.prototype.listen = function (...args) {
  if (!written) {
    written = true;
    writeFileSync(process.env.MODULES_AT_LISTEN, Object.keys(require.cache).join('\n'));
  }
  return listen.apply(this, args);
};
