import type { APIRequestContext, Page } from '@playwright/test';
import { findings } from './axe';
import { adminToken, expect, test } from './fixtures';
import { tabTo } from './keyboard';

// Passkeys in the browser, by keyboard, through Chromium's virtual authenticator (CDP
// WebAuthn): one added from the user menu's two-step dialog, then asked for at the next
// sign-in; and the security policy set on its settings screen. axe on every new screen and
// dialog. The relying party of a server without a public URL is `localhost`, so the pages
// are opened there (browsers refuse an IP address as a relying party).

test.use({ baseURL: async ({ server }, use) => use(server.url.replace('127.0.0.1', 'localhost')) });

/** A virtual platform authenticator that verifies the user (as a fingerprint would). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function newUser(request: APIRequestContext, baseURL: string) {
  const headers = { Authorization: `Bearer ${await adminToken(request, baseURL)}` };
  const email = `passkey-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = 'Passkey-password-1';
  const r = await request.post(`${baseURL}/api/v1/identity/users`, { headers, data: { email, firstName: 'Pia', lastName: 'Key', roles: ['Administrator'], password } });
  expect(r.status(), await r.text()).toBe(201);
  return { email, password, headers };
}

async function typePassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

async function menuEntry(page: Page, name: string) {
  await tabTo(page, page.getByRole('button', { name: /User menu/ }));
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name });
  await expect(item).toBeVisible();
  for (let i = 0; i < 10 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

test('a passkey is added from the user menu and signs in at the second step', async ({ page, request, baseURL }) => {
  await virtualAuthenticator(page);
  const { email, password } = await newUser(request, baseURL!);
  await typePassword(page, email, password);
  await expect(page).not.toHaveURL(/\/login/);

  await menuEntry(page, 'Two-step sign-in…');
  const dialog = page.getByRole('dialog', { name: 'Two-step sign-in' });
  await expect(dialog.getByTestId('passkeys')).toHaveText('No passkeys yet.');
  expect(await findings(page, 'two-step sign-in, passkeys')).toEqual([]);
  // No name: said in words, nothing asked of the authenticator.
  const add = dialog.getByRole('button', { name: 'Add a passkey' });
  await tabTo(page, add);
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Give the passkey a name')).toBeVisible();
  const name = dialog.getByLabel('Passkey name');
  await tabTo(page, name, { back: true });
  await page.keyboard.type('This laptop');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('passkeys').getByRole('cell', { name: 'This laptop', exact: true })).toBeVisible();
  // The first factor: its recovery codes, shown once.
  await expect(dialog.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await expect(dialog.getByTestId('two-step-state')).toContainText('On: a passkey.');
  expect(await findings(page, 'two-step sign-in, passkey added')).toEqual([]);
  // Remove asks for the password (and Back keeps it).
  await tabTo(page, dialog.getByRole('button', { name: 'Remove This laptop' }));
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Password')).toBeFocused();
  expect(await findings(page, 'two-step sign-in, remove a passkey')).toEqual([]);
  await tabTo(page, dialog.getByRole('button', { name: 'Back' }));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await menuEntry(page, 'Logout');
  await typePassword(page, email, password);
  const step = page.getByRole('form', { name: 'Second step' });
  const usePasskey = step.getByRole('button', { name: 'Use a passkey' });
  await expect(usePasskey).toBeFocused();
  expect(await findings(page, 'sign-in, passkey step')).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);

  // Last used is now filled in.
  await menuEntry(page, 'Two-step sign-in…');
  await expect(dialog.getByTestId('passkeys').getByRole('row').nth(1)).not.toContainText('Never');
});

test('the security policy is set on its settings screen', async ({ page, request, baseURL }) => {
  const admin = { Authorization: `Bearer ${await adminToken(request, baseURL!)}` };
  const { email, password } = await newUser(request, baseURL!);
  await typePassword(page, email, password);
  await expect(page).not.toHaveURL(/\/login/);
  try {
    await page.goto('/settings/security');
    const form = page.getByRole('form', { name: 'Security policy' });
    const coordinator = form.getByRole('checkbox', { name: 'Coordinator' });
    await expect(coordinator).not.toBeChecked();
    expect(await findings(page, 'security policy')).toEqual([]);
    await tabTo(page, coordinator);
    await page.keyboard.press('Space');
    await expect(coordinator).toBeChecked();
    await tabTo(page, form.getByRole('button', { name: 'Save Changes' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Save Changes' });
    await tabTo(page, confirm.getByRole('button', { name: 'Save Changes' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('One role must use two-step sign-in.')).toBeVisible();
    const saved = await request.get(`${baseURL}/api/v1/system-settings/security`, { headers: admin });
    expect(await saved.json()).toEqual({ mfaRequiredRoles: ['Coordinator'] });
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Coordinator' })).toBeChecked();
    expect(await findings(page, 'security policy, saved')).toEqual([]);
  } finally {
    await request.put(`${baseURL}/api/v1/system-settings/security`, { headers: admin, data: { mfaRequiredRoles: [] } });
  }
});
