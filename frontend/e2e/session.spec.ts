import { findings } from './axe';
import { now } from './dates';
import { ADMIN_EMAIL, startServer } from './server';
import { expect, signIn, storage, test } from './fixtures';

test.describe('session', () => {
  test('signs in with the form and loads nothing from outside', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL!) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    const status = page.getByRole('region', { name: 'System status' });
    await expect(status.getByText('2.0.0')).toBeVisible();
    await expect(status.getByText('ok').first()).toBeVisible();
    expect(await storage(page, 'accessToken')).toMatch(/^ey/);
    expect(await storage(page, 'refreshToken')).toBeTruthy();
    expect(foreign).toEqual([]);
  });

  test("a failed sign-in shows the server's detail", async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('wrong-password-123');
    const [response] = await Promise.all([
      page.waitForResponse('**/api/v1/identity/login'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(response.status()).toBe(401);
    const { detail } = await response.json();
    await expect(page.getByTestId('login-error')).toHaveText(detail);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an anonymous visitor is sent to /login and returned to the page after sign-in', async ({ page }) => {
    await page.goto('/budget/list');
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page);
    await expect(page).toHaveURL(/\/budget\/list$/);
    await expect(page.getByRole('heading', { name: 'Budgets' })).toBeVisible();
  });

  test('a reload keeps the session; only auth is persisted', async ({ page }) => {
    await signIn(page);
    await page.goto('/reports');
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    const persisted = JSON.parse((await storage(page, 'persist:root'))!);
    expect(Object.keys(persisted).sort()).toEqual(['_persist', 'auth']);
    expect(JSON.parse(persisted.auth).userDetails.email).toBe(ADMIN_EMAIL);
  });

  test('a signed-in user opening /login goes Home', async ({ page }) => {
    await signIn(page);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/forgot-password');
    await expect(page).toHaveURL(/\/$/);
  });

  test('logout clears the stored session and replaces the history entry', async ({ page }) => {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await page.evaluate(() => localStorage.setItem('participantsReportColumns', '["fullName"]'));
    const historyLength = await page.evaluate(() => history.length);
    const tokens = { token: await storage(page, 'accessToken'), refreshToken: await storage(page, 'refreshToken') };

    await page.getByRole('button', { name: 'User menu' }).click();
    const info = page.getByTestId('user-info');
    await expect(info).toContainText(ADMIN_EMAIL);
    await expect(info).toContainText('Administrator');
    // Information, not an action: no menu item.
    await expect(page.getByRole('menuitem').filter({ hasText: ADMIN_EMAIL })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Logout' }).click();

    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    for (const key of ['accessToken', 'refreshToken', 'participantsReportColumns']) {
      expect(await storage(page, key), key).toBeNull();
    }
    await expect
      .poll(async () => JSON.parse(JSON.parse((await storage(page, 'persist:root'))!).auth).userDetails)
      .toBeNull();
    // The server ended the sign-in too: its refresh token no longer works.
    await expect
      .poll(async () => (await page.request.post('/api/v1/identity/refresh', { data: tokens })).status())
      .toBe(401);
    // Going back cannot show the signed-in page again.
    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a logout in one tab logs out the other tabs', async ({ page, context }) => {
    await signIn(page);
    const second = await context.newPage();
    await second.goto('/reports');
    await expect(second.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(second).toHaveURL(/\/login$/);
  });

  // The fake clocks below start at the tests' now, the server's, not at the real time.
  test('15 minutes without activity log the user out', async ({ page }) => {
    await page.clock.install({ time: now() });
    await signIn(page);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await page.clock.fastForward('14:00');
    await expect(page).toHaveURL(/\/$/);
    // Warned first; the jump fired the warning at 14:00, its two minutes run from there.
    await expect(page.getByRole('dialog', { name: 'Still there?' })).toBeVisible();
    await page.clock.runFor('02:30');
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText('You were signed out after 15 minutes without activity.')).toBeVisible();
    expect(await storage(page, 'refreshToken')).toBeNull();
  });

  test('two minutes before the idle sign-out a warning asks; Stay signed in keeps the session', async ({ page }) => {
    await page.clock.install({ time: now() });
    await signIn(page);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await page.clock.fastForward('13:05');
    const warning = page.getByRole('dialog', { name: 'Still there?' });
    await expect(warning).toContainText('you will be signed out in 2 minutes');
    // The keyboard is enough: the button has the focus.
    await expect(warning.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
    expect(await findings(page, 'idle sign-out warning')).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(warning).toBeHidden();
    await page.clock.fastForward('10:00');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  });

  test('activity keeps the session alive', async ({ page }) => {
    await page.clock.install({ time: now() });
    await signIn(page);
    await page.clock.fastForward('10:00');
    await page.mouse.move(200, 300);
    await page.mouse.move(260, 320);
    await page.clock.fastForward('10:00');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  });

  test('on load, a last activity older than 15 minutes logs the user out', async ({ page }) => {
    await signIn(page);
    // Set at document start of the reloaded page, so the unloading page cannot overwrite it.
    await page.addInitScript(() => localStorage.setItem('lastActivity', String(Date.now() - 16 * 60 * 1000)));
    await page.reload();
    await expect(page).toHaveURL(/\/login/);
    expect(await storage(page, 'accessToken')).toBeNull();
  });

  test('a burst of calls with an expiring token refreshes exactly once', async ({ page }) => {
    // Tokens live 62 s: after ~2 s they are inside the 60 s margin.
    const shortLived = await startServer({ MENTORPAY_ACCESS_TOKEN_TTL: '62' });
    try {
      const refreshes: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/v1/identity/refresh')) refreshes.push(request.url());
      });
      await page.goto(`${shortLived.url}/login`);
      await signIn(page);
      const firstToken = await storage(page, 'accessToken');
      await page.waitForTimeout(3000);

      // The settings page fires three queries at once.
      const [users, roles, permissions] = ['users', 'roles', 'permissions'].map((name) =>
        page.waitForResponse((r) => r.url().includes(`/api/v1/identity/${name}`) && r.status() === 200),
      );
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' }).click();
      await Promise.all([users, roles, permissions]);

      await expect(page.getByTestId('count-users')).toHaveText(/^[1-9]\d*$/);
      await expect(page.getByTestId('count-roles')).toHaveText(/^[1-9]\d*$/);
      await expect(page.getByTestId('count-permissions')).toHaveText(/^[1-9]\d*$/);
      expect(refreshes).toHaveLength(1);
      expect(await storage(page, 'accessToken')).not.toBe(firstToken);
      await expect(page).toHaveURL(/\/settings$/);
    } finally {
      await shortLived.stop();
    }
  });
});
