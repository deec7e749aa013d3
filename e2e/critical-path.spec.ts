import { expect, test } from './fixtures.js';

// What the first paint waits for: the HTML, the one stylesheet and the entry module. A plain script in the head
// would hold it for one more round trip (Lighthouse's render-blocking audit counted the service worker's
// registration there).
test('no script in the page’s head blocks its first paint', async ({ page }) => {
  const response = await page.request.get('/');
  const head = (await response.text()).split('</head>')[0]!;
  const scripts = [...head.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
  expect(scripts.length).toBeGreaterThan(0);
  const blocking = scripts.filter((tag) => !/\btype="module"|\bdefer\b|\basync\b/.test(tag));
  expect(blocking).toEqual([]);
});
