import { expect, screenshots, tabTo, test } from './fixtures.js';

test('the checklist is ticked by keyboard, its progress survives a reload and is cleared', async ({ page }) => {
  await page.goto('/checklist');
  const overall = page.getByRole('status');
  await expect(overall).toHaveText('0 of 272 steps done');
  const unique = page.getByRole('checkbox', { name: 'A different password for every account' });
  // What to do and why are the checkbox's description, read with it.
  await expect(unique).toHaveAccessibleDescription(
    /Never reuse a password, even a strong one\. When one site leaks, attackers try/,
  );
  await tabTo(page, unique);
  await page.keyboard.press('Space');
  await expect(unique).toBeChecked();
  // Only the first group is open at the start; the others open by their heading's button.
  const twoStep = page.getByRole('button', { name: /Two-step sign-in/ });
  await expect(twoStep).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('checkbox', { name: 'Prefer an authenticator app over SMS codes' })).toHaveCount(0);
  await twoStep.click();
  await expect(twoStep).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('checkbox', { name: 'Prefer an authenticator app over SMS codes' }).check();
  await page.getByRole('button', { name: /Backups and data/ }).click();
  await page.getByRole('checkbox', { name: 'Back up your important files automatically' }).check();
  await expect(overall).toHaveText('3 of 272 steps done');
  await expect(page.getByRole('heading', { name: /Two-step sign-in/ })).toContainText('1 of 16');
  await expect(page.getByRole('heading', { name: /Accounts and passwords/ })).toContainText('1 of 16');

  await page.reload();
  await expect(overall).toHaveText('3 of 272 steps done');
  await expect(unique).toBeChecked();
  await expect(page.getByRole('heading', { name: /Backups and data/ })).toContainText('1 of 16');
  await page.getByRole('button', { name: /Two-step sign-in/ }).click();
  await expect(page.getByRole('checkbox', { name: 'Prefer an authenticator app over SMS codes' })).toBeChecked();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `checklist-${scheme}`);
  }

  await page.getByRole('button', { name: 'Clear my progress' }).click();
  await expect(overall).toHaveText('0 of 272 steps done');
  await expect(page.getByText('Your progress is cleared from this browser.')).toBeVisible();
  await expect(unique).not.toBeChecked();
  await page.reload();
  await expect(overall).toHaveText('0 of 272 steps done');
  await expect(page.getByRole('button', { name: 'Clear my progress' })).toBeDisabled();
});

test('every item shows its priority, and the list can show one priority while progress counts all', async ({
  page,
}) => {
  await page.goto('/checklist');
  await page.getByRole('button', { name: /Two-step sign-in/ }).click();
  const key = page.getByRole('checkbox', { name: 'Use a hardware security key' });
  await expect(key.locator('xpath=..')).toContainText('Advanced');
  await expect(page.getByRole('checkbox', { name: 'Turn on two-step sign-in' }).locator('xpath=..')).toContainText(
    'Essential',
  );
  await page.getByRole('checkbox', { name: 'Turn on two-step sign-in' }).check();
  await page.getByRole('combobox', { name: 'Show' }).selectOption('advanced');
  await expect(key).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Turn on two-step sign-in' })).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('1 of 272 steps done');
  await expect(page.getByRole('heading', { name: /Two-step sign-in/ })).toContainText('1 of 16');
  await page.getByRole('combobox', { name: 'Show' }).selectOption('all');
  await expect(page.getByRole('checkbox', { name: 'Turn on two-step sign-in' })).toBeChecked();
});

test('the items are fetched with the page, in the visitor’s language only', async ({ page }) => {
  // Each body is read as its response arrives; the assertions wait for every read begun so far.
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  const scripts = () => Promise.all(bodies);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect((await scripts()).some((text) => text.includes('Never reuse a password'))).toBe(false);

  await page.getByRole('navigation').getByRole('link', { name: 'Security checklist' }).first().click();
  await expect(page.getByRole('checkbox', { name: 'A different password for every account' })).toBeVisible();
  expect((await scripts()).some((text) => text.includes('Never reuse a password'))).toBe(true);
  expect((await scripts()).some((text) => text.includes('即使是强密码也不要重复使用'))).toBe(false);
});

test('in Chinese every item is translated', async ({ page }) => {
  await page.goto('/checklist');
  await page.locator('header').getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('status')).toHaveText('已完成 0 / 272 项');
  await expect(page.getByRole('checkbox', { name: '每个账户使用不同的密码' })).toBeVisible();
  await page.getByRole('button', { name: /两步验证/ }).click();
  await expect(page.getByRole('checkbox', { name: '使用硬件安全密钥' }).locator('xpath=..')).toContainText('进阶');
});
