import { expect, screenshots, tabTo, test } from './fixtures.js';

test('the checklist is ticked by keyboard, its progress survives a reload and is cleared', async ({ page }) => {
  await page.goto('/checklist');
  const overall = page.getByRole('status');
  await expect(overall).toHaveText('0 of 42 steps done');
  const unique = page.getByRole('checkbox', { name: 'Use a different password for every account' });
  // The why is the checkbox's description, read with it.
  await expect(unique).toHaveAccessibleDescription(/attackers try them everywhere else/);
  await tabTo(page, unique);
  await page.keyboard.press('Space');
  await expect(unique).toBeChecked();
  await page.getByRole('checkbox', { name: 'Prefer an authenticator app over text-message codes' }).check();
  await page.getByRole('checkbox', { name: 'Back up your important files automatically' }).check();
  await expect(overall).toHaveText('3 of 42 steps done');
  await expect(page.getByRole('heading', { name: /Two-step sign-in/ })).toContainText('1 of 5');
  await expect(page.getByRole('heading', { name: /Accounts and passwords/ })).toContainText('1 of 6');

  await page.reload();
  await expect(overall).toHaveText('3 of 42 steps done');
  await expect(unique).toBeChecked();
  await expect(page.getByRole('heading', { name: /Backups/ })).toContainText('1 of 3');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshots(page, `checklist-${scheme}`);
  }

  await page.getByRole('button', { name: 'Clear my progress' }).click();
  await expect(overall).toHaveText('0 of 42 steps done');
  await expect(page.getByText('Your progress is cleared from this browser.')).toBeVisible();
  await expect(unique).not.toBeChecked();
  await page.reload();
  await expect(overall).toHaveText('0 of 42 steps done');
  await expect(page.getByRole('button', { name: 'Clear my progress' })).toBeDisabled();
});

test('in Chinese every item is translated', async ({ page }) => {
  await page.goto('/checklist');
  await page.locator('header').getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('status')).toHaveText('已完成 0 / 42 项');
  await expect(page.getByRole('checkbox', { name: '每个账户使用不同的密码' })).toBeVisible();
});
