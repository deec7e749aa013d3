/**
 * Puts `text` on the clipboard; false where the browser refuses (a page over plain HTTP, a denied permission),
 * so the caller can select the text for the visitor to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
