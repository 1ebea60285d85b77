import { createHmac } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { findings } from './axe';
import { now } from './dates';
import { adminToken, expect, test } from './fixtures';
import { tabTo } from './keyboard';

// Two-step sign-in in the browser, by keyboard: an authenticator app set up from the user
// menu and asked for at the next sign-in (codes computed here, RFC 6238), a recovery code
// instead, the set-up a role's policy requires at sign-in, and the sign-ins listed. axe on
// every new screen and dialog.

/** RFC 6238 (SHA-1, 6 digits, 30 s) for a Base32 secret, `steps` time steps from now. */
function totp(secret: string, steps = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now().getTime() / 1000 / 30) + steps));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac.readUInt8(mac.length - 1) & 0xf;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

/** Waits until the next seconds stay inside one 30-second step. */
async function withinOneStep(page: Page) {
  const into = (now().getTime() / 1000) % 30;
  if (into > 22) await page.waitForTimeout((31 - into) * 1000);
}

async function newUser(request: APIRequestContext, baseURL: string, roles: string[]) {
  const headers = { Authorization: `Bearer ${await adminToken(request, baseURL)}` };
  const email = `two-step-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = 'Two-step-password-1';
  const r = await request.post(`${baseURL}/api/v1/identity/users`, { headers, data: { email, firstName: 'Tess', lastName: 'Step', roles, password } });
  expect(r.status(), await r.text()).toBe(201);
  return { email, password, headers };
}

/** The password step by keyboard. */
async function typePassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

/** Opens an entry of the user menu by keyboard. */
async function menuEntry(page: Page, name: string) {
  await tabTo(page, page.getByRole('button', { name: /User menu/ }));
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name });
  await expect(item).toBeVisible();
  for (let i = 0; i < 10 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

test('an authenticator app is set up from the user menu and asked for at the next sign-in, or a recovery code', async ({ page, request, baseURL }) => {
  const { email, password } = await newUser(request, baseURL!, ['Administrator']);
  await typePassword(page, email, password);
  await expect(page).not.toHaveURL(/\/login/);

  await menuEntry(page, 'Two-step sign-in…');
  const dialog = page.getByRole('dialog', { name: 'Two-step sign-in' });
  await expect(dialog.getByTestId('two-step-state')).toContainText('Off.');
  expect(await findings(page, 'two-step sign-in, off')).toEqual([]);
  const setUp = dialog.getByRole('button', { name: 'Set up an authenticator app' });
  await tabTo(page, setUp);
  await withinOneStep(page);
  await page.keyboard.press('Enter');
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  expect(await findings(page, 'two-step sign-in, set-up')).toEqual([]);
  const code = dialog.getByLabel('Code from your authenticator app');
  await tabTo(page, code);
  await page.keyboard.type('000000');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('The code is incorrect.')).toBeVisible();
  await code.press('ControlOrMeta+a');
  await page.keyboard.type(totp(secret, -1));
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  const codes = await dialog.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts();
  expect(codes).toHaveLength(10);
  expect(await findings(page, 'two-step sign-in, recovery codes')).toEqual([]);
  await tabTo(page, dialog.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /User menu/ })).toBeFocused();

  // Signed out, the password leads to the code step.
  await menuEntry(page, 'Logout');
  await typePassword(page, email, password);
  const step = page.getByRole('form', { name: 'Second step' });
  await expect(step.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expect(step.getByLabel('Code from your authenticator app')).toBeFocused();
  expect(await findings(page, 'sign-in, code step')).toEqual([]);
  await page.keyboard.type(totp(secret, 0));
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);

  // Where one is signed in: this one, marked.
  await menuEntry(page, 'Where you are signed in…');
  const sessions = page.getByRole('dialog', { name: 'Where you are signed in' });
  await expect(sessions.getByTestId('session-row').filter({ hasText: 'This one' })).toHaveCount(1);
  expect(await findings(page, 'where you are signed in')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(sessions).toBeHidden();

  // A recovery code instead of the app.
  await menuEntry(page, 'Logout');
  await typePassword(page, email, password);
  await tabTo(page, step.getByRole('button', { name: 'Use a recovery code instead' }));
  await page.keyboard.press('Enter');
  const recovery = step.getByLabel('Recovery code');
  await expect(recovery).toBeFocused();
  expect(await findings(page, 'sign-in, recovery code')).toEqual([]);
  await page.keyboard.type(codes[0]);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
});

test('a role the policy names sets up its app at sign-in; an Administrator can remove it and end the sessions', async ({ page, request, baseURL }) => {
  const admin = { Authorization: `Bearer ${await adminToken(request, baseURL!)}` };
  const role = `Two-step ${Date.now()}`;
  expect((await request.post(`${baseURL}/api/v1/identity/roles`, { headers: admin, data: { name: role, permissions: ['user:read'] } })).status()).toBe(201);
  const { email, password } = await newUser(request, baseURL!, [role]);
  const policy = await request.put(`${baseURL}/api/v1/system-settings/security`, { headers: admin, data: { mfaRequiredRoles: [role] } });
  expect(policy.status(), await policy.text()).toBe(200);
  try {
    await withinOneStep(page);
    await typePassword(page, email, password);
    const form = page.getByRole('form', { name: 'Set up two-step sign-in' });
    await expect(form.getByRole('button', { name: 'Show the set-up code' })).toBeFocused();
    expect(await findings(page, 'sign-in, set-up required')).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(form.getByTestId('totp-secret')).toBeVisible();
    const secret = (await form.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    expect(await findings(page, 'sign-in, set-up code shown')).toEqual([]);
    await expect(form.getByLabel('Code from your authenticator app')).toBeFocused();
    await page.keyboard.type(totp(secret, -1));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await expect(page.getByRole('heading', { name: 'Two-step sign-in is on' })).toBeFocused();
    expect(await findings(page, 'sign-in, recovery codes')).toEqual([]);
    await tabTo(page, page.getByRole('button', { name: 'I have saved them: continue' }));
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(/\/login/);
  } finally {
    await request.put(`${baseURL}/api/v1/system-settings/security`, { headers: admin, data: { mfaRequiredRoles: [] } });
  }

  // The Administrator's help, in the user dialog.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('admin@example.org');
  await page.getByLabel('Password').fill('e2e-Admin-password-1');
  await page.getByLabel('Password').press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/settings/users');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await tabTo(page, page.getByRole('button', { name: `Edit ${email}` }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Edit ${email}` });
  await expect(dialog.getByRole('group', { name: 'Sign-in security' })).toBeVisible();
  expect(await findings(page, 'user dialog, sign-in security')).toEqual([]);
  await tabTo(page, dialog.getByRole('button', { name: 'Remove second factor' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Remove second factor' });
  // In the page before it is looked at: a dialog not yet there has no fade to wait for.
  await expect(confirm).toBeVisible();
  expect(await findings(page, 'remove second factor, confirm')).toEqual([]);
  const [removed] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/mfa') && r.request().method() === 'DELETE'), page.keyboard.press('Enter')]);
  expect(removed.status()).toBe(204);
  await expect(confirm).toBeHidden();
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email, password } });
  expect((await login.json()).accessToken).toBeTruthy();
});
