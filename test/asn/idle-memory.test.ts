import { test } from 'node:test';
import assert from 'node:assert/strict';

// An Intl formatter made when a module loads keeps ICU's data resident (5 MB of the
// node binary) in a service that may never format a number.
test('the AS profile module makes no Intl formatter when it loads', async () => {
  const made: unknown[] = [];
  const { NumberFormat } = Intl;
  Intl.NumberFormat = new Proxy(NumberFormat, {
    construct(Target, args: ConstructorParameters<typeof NumberFormat>) {
      made.push(args);
      return new Target(...args);
    },
  });
  try {
    await import('../../routes/asn/radar-asn.js');
  } finally {
    Intl.NumberFormat = NumberFormat;
  }
  assert.deepEqual(made, []);
});
