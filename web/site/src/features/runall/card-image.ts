/**
 * Saves `card` as a PNG the browser downloads, drawn by modern-screenshot
 * (a maintained library; loaded only now, on the visitor's click, so no page
 * carries it before). The card's own buttons are left out of the picture, and
 * its background is the page's, so a dark theme gives a dark image.
 */
export async function saveCardImage(card: HTMLElement, fileName: string): Promise<void> {
  const { domToPng } = await import('modern-screenshot');
  const url = await domToPng(card, {
    scale: 2,
    // The site draws with the system's fonts, so there is none to embed; and embedding reads the style sheets
    // through an inline <style>, which the site's Content-Security-Policy (style-src 'self') refuses.
    font: false,
    backgroundColor: getComputedStyle(document.body).backgroundColor,
    filter: (node) => !(node instanceof HTMLElement && node.dataset.noImage !== undefined),
  });
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
}
