import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { findings } from './axe';
import { adminToken, expect, test } from './fixtures';
import { freePort, startServer, type RunningServer } from './server';

// Signing in with the agency's button against a real OpenID Connect provider (npm's
// oidc-provider, tests/oidc/provider.mjs), by keyboard; the refusal's words; axe on the login
// page with the button and on the Sign-on settings screen.

const providerScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/oidc/provider.mjs');

async function startProvider(redirect: string): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn('node', [providerScript, '0', redirect], { stdio: ['ignore', 'pipe', 'ignore'] });
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().match(/^issuer (\S+)/m);
      if (line) resolve(line[1]);
    });
    child.once('exit', () => reject(new Error('the OpenID Connect provider did not start')));
  });
  return { issuer, child };
}

let server: RunningServer;
let provider: { issuer: string; child: ChildProcess };

test.beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startProvider(`${url}/api/v1/identity/sso/callback`);
  server = await startServer({
    MENTORPAY_LISTEN: `127.0.0.1:${port}`,
    MENTORPAY_PUBLIC_URL: url,
    MENTORPAY_OIDC_ISSUER: provider.issuer,
    MENTORPAY_OIDC_CLIENT_ID: 'mentorpay',
    MENTORPAY_OIDC_CLIENT_SECRET: 'test-secret',
    MENTORPAY_OIDC_SCOPES: 'openid email profile groups',
  });
});

test.afterAll(async () => {
  await server?.stop();
  provider?.child.kill();
});

/** From the login page to the provider and back, by keyboard only. */
async function signInWithAgency(page: Page, login: string) {
  const button = page.getByRole('link', { name: 'Sign in with your agency account' });
  await expect(button).toBeVisible();
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Agency sign-in' })).toBeVisible();
  await page.getByLabel('User name').focus();
  await page.keyboard.type(login);
  await page.keyboard.press('Enter');
}

test('the agency button signs a person in and opens the page she asked for', async ({ page, request }) => {
  const token = await adminToken(request, server.url);
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(`${server.url}/api/v1/identity/users`, {
    headers,
    data: { email: 'fran@agency.test', firstName: 'Fran', lastName: 'Tester', roles: ['Administrator'], password: 'fran password 1234' },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto(`${server.url}/budget/list`);
  await expect(page).toHaveURL(/\/login$/);
  expect(await findings(page, 'login page with the agency button')).toEqual([]);
  await signInWithAgency(page, 'fran');
  await expect(page).toHaveURL(/\/budget\/list$/);
  expect(page.url()).not.toContain('sso=');
  expect(await page.evaluate(() => localStorage.getItem('accessToken') ?? sessionStorage.getItem('accessToken'))).toBeTruthy();
});

test('a refusal is told in words on the login page', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  await signInWithAgency(page, 'nobody');
  await expect(page).toHaveURL(/\/login$/);
  const alert = page.getByTestId('sso-error');
  await expect(alert).toContainText('There is no MentorPay account for your agency e-mail');
  await expect(alert).toBeFocused();
  expect(await findings(page, 'login page with a refusal')).toEqual([]);
});

test('the Sign-on screen maps groups to roles, by keyboard, axe clean', async ({ page, request }) => {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill('admin@example.org');
  await page.getByLabel('Password').fill('e2e-Admin-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`${server.url}/settings/sign-on`);
  await expect(page.getByRole('form', { name: 'Sign-on' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a group' }).click();
  const group = page.getByRole('textbox', { name: /^Group 1/ });
  await expect(group).toBeFocused();
  await page.keyboard.type('finance');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Coord');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  expect(await findings(page, 'Sign-on settings')).toEqual([]);
  await page.getByRole('button', { name: 'Save' }).click();
  const confirm = page.getByRole('dialog');
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: /save|confirm|yes/i }).click();
  await expect
    .poll(async () => {
      const token = await adminToken(request, server.url);
      const saved = await request.get(`${server.url}/api/v1/system-settings/sso`, { headers: { Authorization: `Bearer ${token}` } });
      const rows: { group: string; roles: string[] }[] = (await saved.json()).groupRoles;
      return rows.map((r) => [r.group, r.roles.length]);
    })
    .toEqual([['finance', 1]]);
});
