import type { Page } from '@playwright/test';

// What npm run screenshots notes beside each shot, for the person who looks at
// them: the checks a script can make, so the eye goes to what they flag.

/** The page wider than the window, or a part of main that scrolls sideways inside it. */
export async function overflowFindings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(el);
      const classes =
        typeof el.className === 'string' && el.className ? `.${el.className.trim().replace(/\s+/g, '.')}` : '';
      // The heading of the part it is in, so the finding says where to look on a long page.
      const part = el.closest('section, article')?.querySelector('h1, h2, h3')?.textContent?.trim();
      const what = `${el.tagName.toLowerCase()}${classes}${part ? ` (in "${part}")` : ''}`;
      if (el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(style.overflowX)) {
        out.push(`${what} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > root.clientWidth + 1 && style.position !== 'fixed') {
        // Past the window's edge yet inside a box that clips or scrolls it: the sideways-scroll finding covers that.
        // (A loop, not a helper: the evaluated function runs alone in the page, without the compiler's helpers.)
        let clipped = false;
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') clipped = true;
        }
        if (!clipped) out.push(`${what} ends at ${Math.round(box.right)} px, past ${root.clientWidth}`);
      }
    }
    return [...new Set(out)].slice(0, 12);
  });
}

/** Every visible text of the page, one entry per text node, trimmed. */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, [hidden]')) continue;
      if (parent.getClientRects().length === 0) continue;
      out.push(text);
    }
    return out;
  });
}

/** Texts shown as a message key (`speed.title`): one of the site's namespaces, a dot, a name. */
export function rawKeys(texts: readonly string[], namespaces: readonly string[]): string[] {
  const key = new RegExp(`^(${namespaces.join('|')})\\.[a-zA-Z][\\w.-]*$`);
  return [...new Set(texts.filter((text) => key.test(text) && !/\.(com|net|org|io)$/.test(text)))];
}

// Texts the same in every language: names, addresses, numbers, codes.
const NEUTRAL =
  /^[^a-zA-Z]*$|^[A-Z0-9]{2,}$|^AS\d+|\.(com|net|org|io|ing)\b|^https?:|^[\w.-]+\.[a-z]{2,}$|^(IPv4|IPv6|DNS|DoH|WHOIS|MTR|ASN|API|WebRTC|ISP)$/;

/** Texts in another language's page that are its English page's word for word: English left behind. */
export function sameAsEnglish(texts: readonly string[], english: ReadonlySet<string>): string[] {
  return [
    ...new Set(
      texts.filter((text) => english.has(text) && !NEUTRAL.test(text) && /[a-z]{3,}.*\s.*[a-z]{2,}/.test(text)),
    ),
  ];
}
