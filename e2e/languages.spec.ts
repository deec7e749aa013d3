import type { Page } from '@playwright/test';
import { expect, screenshots, test } from './fixtures.js';
import { echoesAnswer } from './rule-echoes.js';

// French and Russian end to end: chosen from the header, remembered by the
// browser, guessed from the browser's own language, and every count in the
// right grammatical form. Both languages' texts run longer than English, so
// each page is photographed at phone width in light and dark.

async function photograph(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `${name}-${scheme}`);
  }
}

test('French, chosen on the home page, stays chosen and reaches a tool page', async ({ page, thirdParty }) => {
  await page.goto('/');
  await page.getByLabel('Language').selectOption({ label: 'Français' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre adresse IP et sa localisation apparente');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('.geo-card').filter({ hasText: 'IPinfo' }).locator('.country')).toHaveText('USÉtats-Unis');
  // French counts 1 in the singular, the rest in the plural.
  await expect(page.getByText('Conserver le lien pendant')).toBeVisible();
  for (const label of ['1 jour', '3 jours', '7 jours']) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.locator('.map img')).toHaveAttribute('src', /[?&]language=fr(&|$)/);
  await photograph(page, 'home-fr');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre adresse IP et sa localisation apparente');
  await expect(page.getByLabel('Langue')).toHaveValue('fr');

  await echoesAnswer(page, thirdParty, '8.8.8.8');
  await page.getByRole('navigation').getByRole('link', { name: 'Règles de proxy' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Test des règles de proxy');
  await expect(page.getByRole('status')).toHaveText('8 destinations ont répondu depuis 1 adresse de sortie.');
  await expect(page.getByRole('row').filter({ hasText: 'api4.ipify.org' })).toContainText('États-Unis');
  await photograph(page, 'rules-fr');
});

test('switching to French asks again the sources that answer in the language, and shows their French names', async ({
  page,
}) => {
  await page.goto('/ip/8.8.8.8');
  const ipApi = page.locator('.geo-card').filter({ hasText: 'ip-api' });
  await expect(ipApi).toContainText('Virginia');
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/geo-')) asked.push(`${url.pathname}?${url.searchParams.get('lang') ?? ''}`);
  });
  await page.getByLabel('Language').selectOption({ label: 'Français' });
  // ip-api names the region in French when asked in French (the fake's fixture, as the real one does).
  await expect(ipApi).toContainText('Virginie');
  await expect(ipApi).not.toContainText('Virginia');
  expect(asked.sort()).toEqual(['/api/geo-free-a?fr', '/api/geo-local?fr', '/api/geo-private?fr']);
});

test('Russian picks one, few or many for a count, on the home page and a tool page', async ({ page, thirdParty }) => {
  await page.goto('/');
  await page.getByLabel('Language').selectOption({ label: 'Русский' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ваш IP-адрес и его предполагаемое местоположение');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.locator('.geo-card').filter({ hasText: 'IPinfo' }).locator('.country')).toHaveText(
    'USСоединенные Штаты',
  );
  for (const label of ['1 день', '3 дня', '7 дней']) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.locator('.map img')).toHaveAttribute('src', /[?&]language=ru(&|$)/);
  await photograph(page, 'home-ru');

  await echoesAnswer(page, thirdParty, '8.8.8.8');
  await page.goto('/rules');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Проверка правил прокси');
  await expect(page.getByRole('status')).toHaveText('8 узлов ответили с одного выходного адреса.');
  await expect(page.getByLabel('Язык')).toHaveValue('ru');
  await photograph(page, 'rules-ru');
});

const GUESSES = [
  { browser: 'ru-RU', lang: 'ru', heading: 'Статус сервисов' },
  { browser: 'fr-CA', lang: 'fr', heading: 'État des services' },
] as const;

for (const { browser, lang, heading } of GUESSES) {
  test.describe(`a browser set to ${browser}`, () => {
    test.use({ locale: browser });

    test(`opens the site in ${lang} without being asked`, async ({ page }) => {
      await page.goto('/status');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
    });
  });
}
