import { browserStore } from './lib/kept';
import { applyTheme, readTheme } from './lib/theme';

// Imported first by main.ts so the remembered theme is on <html> before Vue renders anything: the CSP allows
// no inline script in index.html, and a page drawn light then switched dark would flash.
applyTheme(document.documentElement, readTheme(browserStore()));
