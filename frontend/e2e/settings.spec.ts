import type { Browser, Page } from '@playwright/test';
import { findings } from './axe';
import { ADMIN_EMAIL, startServer } from './server';
import { adminToken, createCoordinator, expect, mailedLink, signIn, syncClock, test } from './fixtures';

/** Answers the Save Changes dialog. */
async function confirmSave(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Save Changes' });
  await expect(dialog.getByText('Are you sure you want to save the changes?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toHaveCount(0);
}

/** Picks `option` in a Mantine (Multi)Select; its pill area sits over the text input. */
async function pick(scope: Page | ReturnType<Page['getByRole']>, label: string, option: string, page: Page) {
  await scope.getByRole('textbox', { name: label }).click({ force: true });
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Tab'); // a multi-select stays open for more picks; leaving closes it
}

/** A second, separate browser session (another person at another desk). */
async function otherSession(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await syncClock(context);
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe('settings', () => {
  test('block login: a blocked Coordinator sees the message at sign-in; unblocking lets them in', async ({ page, browser, request, baseURL }) => {
    const coordinator = await createCoordinator(request, baseURL!);
    const message = `Closed for fiscal year end until July 5 (${Date.now()}).`;
    await signIn(page);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Block login' }).click();
    await expect(page.getByTestId('block-status')).toContainText('Coordinators can sign in');

    // Blocking needs a message: the server's field error shows on the field.
    await page.getByRole('switch', { name: 'Block Coordinator sign-in' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByLabel('Message shown to Coordinators')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('is required while coordinator login is blocked', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert', { name: 'There is a problem' })).toBeFocused();

    await page.getByLabel('Message shown to Coordinators').fill(message);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByTestId('block-status')).toContainText('Coordinator sign-in is blocked');

    const other = await otherSession(browser, baseURL!);
    await other.page.goto('/login');
    await other.page.getByLabel('E-mail').fill(coordinator.email);
    await other.page.getByLabel('Password').fill(coordinator.password);
    await other.page.getByLabel('Password').press('Enter');
    // The login page shows the 403's detail as is.
    await expect(other.page.getByTestId('login-error')).toHaveText(message);
    await expect(other.page).toHaveURL(/\/login$/);

    // The block stays after a reload; unblock.
    await page.reload();
    await expect(page.getByLabel('Message shown to Coordinators')).toHaveValue(message);
    await page.getByRole('switch', { name: 'Block Coordinator sign-in' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByTestId('block-status')).toContainText('Coordinators can sign in');

    await signIn(other.page, coordinator.email, coordinator.password);
    await expect(other.page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await other.close();
  });

  test('a signed-in Coordinator is signed out with the block message when the session renews', async ({ page, request }) => {
    // Access tokens of 62 s count as expired after 2 s: the next call renews, and the block refuses it.
    const shortLived = await startServer({ MENTORPAY_ACCESS_TOKEN_TTL: '62' });
    try {
      const coordinator = await createCoordinator(request, shortLived.url);
      await page.goto(`${shortLived.url}/login`);
      await signIn(page, coordinator.email, coordinator.password);
      const message = 'Sign-in is closed while the fiscal year is closed.';
      const blocked = await request.post(`${shortLived.url}/api/v1/system-settings/block-coordinator-login`, {
        headers: { Authorization: `Bearer ${await adminToken(request, shortLived.url)}` },
        data: { isBlocked: true, message },
      });
      expect(blocked.status()).toBe(200);
      await page.waitForTimeout(3000);
      // The budget list calls the API, which first renews the token. A background call (the
      // banners, the health widget) may renew first and sign the page out before the click:
      // either way the renewal is refused with the block's message.
      const budgets = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' });
      await budgets.click({ timeout: 5000 }).catch(() => undefined);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByTestId('signout-notice')).toHaveText(message);
    } finally {
      await shortLived.stop();
    }
  });

  test('notification banner: published by the Administrator, shown to a Coordinator with its severity', async ({ page, browser, request, baseURL }) => {
    const coordinator = await createCoordinator(request, baseURL!);
    const text = `Payments run late this week (${Date.now()}).`;
    await signIn(page);
    await page.goto('/settings/notification-banner');
    await page.getByRole('button', { name: 'Add banner' }).click();
    const row = page.getByTestId('banner-row').last();
    await row.getByLabel('Message').fill(text);
    await row.getByLabel('Severity').click();
    await page.getByRole('option', { name: 'Warning' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(row.getByText('Showing now')).toBeVisible();
    // The author sees it at once, on every page.
    const banner = page.getByTestId('notification-banners').getByText(text);
    await expect(banner).toBeVisible();
    await page.goto('/budget/list');
    await expect(banner).toBeVisible();

    const other = await otherSession(browser, baseURL!);
    await signIn(other.page, coordinator.email, coordinator.password);
    const seen = other.page.getByTestId('notification-banners').locator('[data-severity]', { hasText: text });
    await expect(seen).toBeVisible();
    await expect(seen).toHaveAttribute('data-severity', 'Warning');
    await other.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Participant Management' }).click();
    await expect(seen).toBeVisible();

    // Switched off, it is gone for everyone (the Coordinator after a reload).
    await page.goto('/settings/notification-banner');
    const saved = page.getByTestId('banner-row').filter({ has: page.getByText(text) });
    await saved.getByRole('switch', { name: 'Active' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByTestId('notification-banners').getByText(text)).toHaveCount(0);
    await other.page.reload();
    await expect(other.page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await expect(other.page.getByText(text)).toHaveCount(0);
    await other.close();
  });

  test('general: the mileage rate is saved; bad values and stale versions are shown clearly', async ({ page, request, baseURL }) => {
    // (That the rate drives F3 amounts is tested in payment-requests.spec.ts.)
    await signIn(page);
    await page.goto('/settings/general');
    const rate = page.getByLabel('Mileage rate (per mile)');
    await expect(rate).not.toHaveValue('');
    await rate.fill('0.72');
    await page.getByLabel('Support e-mail').fill('not-an-address');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByLabel('Support e-mail')).toHaveAttribute('aria-invalid', 'true');

    // Cancel Changes asks first, then restores the saved values.
    await page.getByRole('button', { name: 'Cancel Changes' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel Changes' });
    await expect(cancel.getByText('Are you sure you want to cancel the changes?')).toBeVisible();
    await cancel.getByRole('button', { name: 'Cancel Changes' }).click();
    await expect(page.getByLabel('Support e-mail')).not.toHaveValue('not-an-address');

    await rate.fill('0.72');
    await rate.press('Enter'); // Enter submits: the Save Changes question
    await confirmSave(page);
    await expect(page.getByText('The general settings were saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Mileage rate (per mile)')).toHaveValue('0.72');

    // Someone else saves meanwhile: this page's save is a 409, said as such, and reload shows theirs.
    const token = await adminToken(request, baseURL!);
    const headers = { Authorization: `Bearer ${token}` };
    const current = await (await request.get(`${baseURL}/api/v1/system-settings/general`, { headers })).json();
    const put = await request.put(`${baseURL}/api/v1/system-settings/general/${current.id}`, {
      headers,
      data: { ...current, organisationName: 'Changed elsewhere' },
    });
    expect(put.status()).toBe(200);
    await page.getByLabel('Organisation name').fill('Changed here');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByTestId('conflict')).toContainText('changed by someone else');
    await page.getByRole('button', { name: 'Reload current values' }).click();
    await expect(page.getByLabel('Organisation name')).toHaveValue('Changed elsewhere');
    await expect(page.getByTestId('conflict')).toHaveCount(0);
  });

  test('general: the quota on receipts not yet attached is shown and saved', async ({ page }) => {
    await signIn(page);
    await page.goto('/settings/general');
    const quota = page.getByLabel('Receipts not yet attached, per person (MB)');
    await expect(quota).toHaveValue('100');
    await quota.fill('250');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByText('The general settings were saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Receipts not yet attached, per person (MB)')).toHaveValue('250');
  });

  test('general: the date format of imported files is chosen in words and saved', async ({ page, request, baseURL }) => {
    await signIn(page);
    await page.goto('/settings/general');
    const format = page.getByRole('textbox', { name: 'Date format' });
    await expect(format).toHaveValue('MM/DD/YYYY (month first, as in the United States)');
    expect(await findings(page, 'general settings')).toEqual([]);
    await pick(page, 'Date format', 'DD/MM/YYYY (day first)', page);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByText('The general settings were saved.')).toBeVisible();
    await page.reload();
    await expect(format).toHaveValue('DD/MM/YYYY (day first)');
    // Back to the default, so the other specs' imports read days month first.
    const headers = { Authorization: `Bearer ${await adminToken(request, baseURL!)}` };
    const current = await (await request.get(`${baseURL}/api/v1/system-settings/general`, { headers })).json();
    expect(current.dateFormat).toBe('DD/MM/YYYY');
    const put = await request.put(`${baseURL}/api/v1/system-settings/general/${current.id}`, { headers, data: { ...current, dateFormat: 'MM/DD/YYYY' } });
    expect(put.status()).toBe(200);
  });

  test('template validation: limits per form type are edited in a grid and kept', async ({ page }) => {
    await signIn(page);
    await page.goto('/settings/template-validation');
    const grid = page.getByTestId('limits-grid');
    await expect(grid.locator('tbody tr')).toHaveCount(14);
    // Type-specific limits show only where they apply.
    await expect(page.getByLabel('F3 max miles per trip')).toBeVisible();
    await expect(page.getByLabel('F2 max miles per trip')).toHaveCount(0);
    await page.getByLabel('F3 max miles per trip').fill('321');
    await page.getByLabel('F9 max amount').fill('12345.67');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByText('The form validation limits were saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('F3 max miles per trip')).toHaveValue('321');
    await expect(page.getByLabel('F9 max amount')).toHaveValue('$12,345.67');
  });
});

test.describe('users and roles', () => {
  test('create a role from the permission checklist, invite a user with it, change their roles, deactivate, delete the role', async ({
    page,
    server,
  }) => {
    const roleName = `Auditor ${Date.now()}`;
    const email = `invited-${Date.now()}@example.org`;
    await signIn(page);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Roles', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/roles$/);
    // Built-in roles cannot be deleted.
    await expect(page.getByRole('button', { name: 'Delete Administrator' })).toHaveCount(0);

    await page.getByRole('button', { name: 'New role' }).click();
    const roleForm = page.getByRole('dialog', { name: 'New role' });
    await roleForm.getByLabel('Name').fill(roleName);
    await roleForm.getByLabel('All Budget permissions').check();
    await roleForm.getByLabel('report:read', { exact: true }).check();
    await roleForm.getByRole('button', { name: 'Create role' }).click();
    await expect(roleForm).toHaveCount(0);
    const roleRow = page.locator(`[data-role="${roleName}"]`);
    await expect(roleRow).toContainText(/3 of \d+/);

    await page.getByRole('button', { name: `Edit ${roleName}` }).click();
    const editRole = page.getByRole('dialog', { name: `Edit role ${roleName}` });
    await expect(editRole.getByLabel('All Budget permissions')).toBeChecked();
    await editRole.getByLabel('budget:edit').uncheck();
    await editRole.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(editRole).toHaveCount(0);
    await expect(roleRow).toContainText(/2 of \d+/);

    // Invite a user holding the new role.
    await page.goto('/settings/users');
    await page.getByRole('button', { name: 'Invite user' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a user' });
    await invite.getByLabel('E-mail').fill(email);
    await invite.getByLabel('First name').fill('Ivy');
    await invite.getByLabel('Last name').fill('Invited');
    await pick(invite, 'Roles', roleName, page);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    // No relay runs here: the dialog hands over the link the log holds too.
    const sent = page.getByRole('dialog', { name: `${email} is invited` });
    await expect(sent.getByLabel('Set-password link')).toHaveValue(/\/set-password\?/);
    expect(await sent.getByLabel('Set-password link').inputValue()).toContain(await mailedLink(server, email));
    await sent.getByRole('button', { name: 'Done' }).click();
    await expect(sent).toHaveCount(0);

    await page.getByLabel('Email').fill(email.slice(0, 20));
    const userRow = page.locator(`[data-email="${email}"]`);
    await expect(userRow).toContainText(roleName);
    await expect(userRow).toContainText('Invited');
    await expect(page.locator(`[data-email="${ADMIN_EMAIL}"]`)).toHaveCount(0);

    // Add Coordinator as a second role.
    await page.getByRole('button', { name: `Edit ${email}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${email}` });
    await pick(edit, 'Roles', 'Coordinator', page);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(edit).toHaveCount(0);
    await expect(userRow).toContainText(`${roleName}, Coordinator`);

    // The Roles filter narrows the list on the server.
    await page.getByLabel('Email').fill('');
    await pick(page, 'Roles', roleName, page);
    await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1);
    await expect(userRow).toBeVisible();

    await page.getByRole('button', { name: `Deactivate ${email}` }).click();
    await page.getByRole('dialog', { name: 'Deactivate user' }).getByRole('button', { name: 'Deactivate' }).click();
    await expect(userRow).toContainText('Inactive');

    // A role still held (deactivated users keep theirs) cannot be deleted: the server says why.
    await page.goto('/settings/roles');
    await page.getByRole('button', { name: `Delete ${roleName}` }).click();
    await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(/The role is held by 1 user/)).toBeVisible();
    await expect(roleRow).toBeVisible();

    // A role nobody holds is deleted.
    const spare = `Spare ${Date.now()}`;
    await page.getByRole('button', { name: 'New role' }).click();
    await page.getByRole('dialog', { name: 'New role' }).getByLabel('Name').fill(spare);
    await page.getByRole('dialog', { name: 'New role' }).getByLabel('log:read').check();
    await page.getByRole('dialog', { name: 'New role' }).getByLabel('Name').press('Enter');
    await expect(page.locator(`[data-role="${spare}"]`)).toContainText(/1 of \d+/);
    await page.getByRole('button', { name: `Delete ${spare}` }).click();
    await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator(`[data-role="${spare}"]`)).toHaveCount(0);
  });
});
