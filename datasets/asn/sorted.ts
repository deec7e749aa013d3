/** Position of `value` in an ascending array, or -1. */
export function sortedIndexOf(array: Uint32Array, value: number): number {
  let lo = 0;
  let hi = array.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = array[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
