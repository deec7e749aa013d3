/**
 * Resolves in a later task of the browser's, so the work after it is a task of its own.
 *
 * Speed device (Lighthouse on a phone, total blocking time; docs/performance.md, the register): the first load's
 * script evaluation, the frame's render and the first page's render were one task of 180-260 ms at Lighthouse's
 * 4x slower CPU on /, counted whole past its first 50 ms; as three tasks each is near that line.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
