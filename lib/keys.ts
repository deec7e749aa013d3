/** Picks one entry at random from a comma-separated key setting; undefined when none is set. */
export function pickKey(setting: string): string | undefined {
  const keys = setting
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) return undefined;
  return keys[Math.floor(Math.random() * keys.length)];
}
