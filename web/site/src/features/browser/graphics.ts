/**
 * The graphics adapter as WebGL names it. `shown` is the real adapter
 * (the WEBGL_debug_renderer_info extension's unmasked names); `hidden` is a
 * browser that withholds that extension and gives only its generic names;
 * `none` is a browser without WebGL.
 */
export type Graphics =
  | { state: 'shown'; vendor: string; renderer: string }
  | { state: 'hidden'; vendor: string; renderer: string }
  | { state: 'none' };

/** FingerprintJS's `webGlBasics` value: its WebGL names, or a negative number when it got no context. */
interface WebGlBasics {
  vendor?: string;
  vendorUnmasked?: string;
  renderer?: string;
  rendererUnmasked?: string;
}

/** Reads FingerprintJS's `webGlBasics` component: an error or a status number means no WebGL to ask. */
export function graphicsOf(component: object | undefined): Graphics {
  const value = component && 'value' in component ? component.value : undefined;
  if (!value || typeof value !== 'object') return { state: 'none' };
  const basics = value as WebGlBasics;
  const text = (name: string | undefined) => (typeof name === 'string' ? name.trim() : '');
  const vendor = text(basics.vendorUnmasked);
  const renderer = text(basics.rendererUnmasked);
  if (vendor || renderer) return { state: 'shown', vendor, renderer };
  return { state: 'hidden', vendor: text(basics.vendor), renderer: text(basics.renderer) };
}
