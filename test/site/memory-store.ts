import type { KeptStore } from '../../web/site/src/lib/kept.js';

/** A Storage stand-in over a map, or one that refuses every call as a browser with storage switched off does. */
export function memoryStore(refuse = false): KeptStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  const check = () => {
    if (refuse) throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return {
    data,
    getItem: (key) => {
      check();
      return data.get(key) ?? null;
    },
    setItem: (key, value) => {
      check();
      data.set(key, value);
    },
    removeItem: (key) => {
      check();
      data.delete(key);
    },
  };
}
