/**
 * Runs `start` once, when the first of `elements` comes near the screen, and
 * returns what stops waiting. A browser without IntersectionObserver runs it at once.
 *
 * Speed device (Lighthouse on a phone, total blocking time; docs/performance.md): FingerprintJS's reading (canvas,
 * audio, fonts, WebGL) was 250+196+88 ms of long tasks at Lighthouse's 4x slower CPU when /browser loaded, for
 * cards a phone shows only after scrolling past six others.
 */
export function onFirstView(elements: readonly Element[], start: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    start();
    return () => undefined;
  }
  // Half a screen ahead, so a visitor scrolling down mostly finds the cards filled in.
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      start();
    },
    { rootMargin: '0px 0px 50% 0px' },
  );
  for (const element of elements) observer.observe(element);
  return () => observer.disconnect();
}
