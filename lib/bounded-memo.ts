/**
 * `fn` with its answers remembered per key, for pure checks that see the same
 * few values again and again (a site's Referers, the IP a page looks up from
 * seven sources at once). At `max` keys the memory starts over, so a flood of
 * distinct values costs at most one check each and never unbounded memory.
 */
export function boundedMemo<T>(fn: (key: string) => T, max: number): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = fn(key);
      if (answers.size >= max) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
