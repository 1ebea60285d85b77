import { findings } from './axe';
import { expect, createCoordinator, mailedLink, menuEntries, signIn, test } from './fixtures';

test.describe('application shell', () => {
  test('the Administrator menu holds exactly its entries', async ({ page }) => {
    await signIn(page);
    expect(await menuEntries(page)).toEqual(['Home', 'Participant Management', 'Reports', 'Budgets', 'Settings', 'Audit trail']);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Participant Management' }).click();
    await expect(page).toHaveURL(/\/participant\/list$/);
    await nav.getByRole('link', { name: 'Budgets' }).click();
    await expect(page).toHaveURL(/\/budget\/list$/);
    await nav.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a Coordinator has no Settings entry and sees the permission card on /settings', async ({ page, request, baseURL }) => {
    const coordinator = await createCoordinator(request, baseURL!);
    await signIn(page, coordinator.email, coordinator.password);
    expect(await menuEntries(page)).toEqual(['Home', 'Participant Management', 'Reports', 'Budgets']);
    await page.goto('/settings');
    await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Overview' })).toHaveCount(0);
    await page.goto('/settings/general');
    await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByTestId('user-info')).toContainText('Coordinator');
  });

  test('layout: 264 px menu, 68 px top bar, footer text, primary colour #0076B3', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByTestId('footer')).toHaveText('Internal tool, version 2.0');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    const signInButton = page.getByRole('button', { name: 'Sign in' });
    await page.getByLabel('E-mail').fill('x@example.org');
    await page.getByLabel('Password').fill('x');
    await expect(signInButton).toHaveCSS('background-color', 'rgb(0, 118, 179)');

    await signIn(page);
    await expect(page.getByTestId('footer')).toHaveText('Internal tool, version 2.0');
    expect((await page.getByTestId('side-menu').boundingBox())?.width).toBe(264);
    expect((await page.locator('header').first().boundingBox())?.height).toBe(68);
    const active = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Home' });
    await expect(active).toHaveCSS('background-color', 'rgb(0, 118, 179)');
    await expect(page.getByTestId('content-card')).toBeVisible();
  });

  test('an unknown address sends the user Home', async ({ page }) => {
    await signIn(page);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  });

  test('every screen route answers', async ({ page }) => {
    await signIn(page);
    const reports = [
      '/reports',
      '/reports/mentor-program-reimbursements',
      '/reports/participants',
      '/reports/approvals-by-accounts',
      '/reports/all-approvals',
      '/reports/approvals-by-request-type',
      '/reports/actual-vs-budget',
      '/reports/all-payments-requests',
      '/reports/historical-bonuses',
      '/reports/vendor-payment/list',
      '/reports/vendor-payment/generate',
    ];
    for (const path of reports) {
      await page.goto(path);
      await expect(page, path).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
      await expect(page.getByRole('main').getByRole('heading').first(), path).toBeVisible();
    }
    // Built pages answer with their own heading.
    const built: [string, string][] = [
      ['/settings/general', 'General settings'],
      ['/settings/template-validation', 'Template validation'],
      ['/settings/approval-rules', 'Approval rules'],
      ['/settings/notification-banner', 'Notification banner'],
      ['/settings/block-login', 'Block login'],
      ['/settings/users', 'Users'],
      ['/settings/roles', 'Roles'],
      ['/budget/list', 'Budgets'],
      ['/participant/list', 'Participant Management'],
      ['/participant/create', 'New participant'],
      ['/payment-request/F1/create', 'New payment request (F1)'],
      ['/payment-request/F3/create', 'New payment request (F3)'],
      ['/payment-request/F14/create', 'New payment request (F14)'],
      ['/', 'Payment requests'],
      ['/payment-requests/details', 'Payment request details'],
    ];
    for (const [path, heading] of built) {
      await page.goto(path);
      await expect(page, path).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
      await expect(page.getByRole('heading', { name: heading, exact: true }), path).toBeVisible();
    }
  });

  test('a page that fails to load offers a reload', async ({ page }) => {
    await signIn(page);
    await page.route('**/chunks/BudgetListPage-*.js', (route) => route.abort());
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' }).click();
    const dialog = page.getByRole('dialog', { name: 'Please reload' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/new version of MentorPay/)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Reload' })).toBeVisible();
    expect(await findings(page, 'reload notice')).toEqual([]);
  });
});

test.describe('public pages', () => {
  test('forgot password always answers the same', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('E-mail').fill('nobody@example.org');
    await page.getByLabel('E-mail').press('Enter');
    await expect(page.getByText('If an account exists, a link has been sent')).toBeVisible();
  });

  test('set password with a bad link says so', async ({ page }) => {
    await page.goto('/set-password?email=admin%40example.org&token=not-a-real-token');
    await expect(page.getByText('This link is invalid or has expired.')).toBeVisible();
    await page.goto('/set-password');
    await expect(page.getByText('This link is invalid or has expired.')).toBeVisible();
  });
});

test.describe('set password', () => {
  test('forgot password, the mailed link, a 12+ character password, then sign in', async ({ page, request, baseURL, server }) => {
    // A fresh user, so the admin's password stays as the other tests expect.
    const user = await createCoordinator(request, baseURL!);
    await page.goto('/forgot-password');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('E-mail').press('Enter');
    await expect(page.getByText('If an account exists, a link has been sent')).toBeVisible();

    // No SMTP relay is configured, so the server writes the mail to its log.
    const link = await mailedLink(server, user.email);
    await page.goto(link);
    await page.getByLabel('New password').fill('too-short');
    await page.getByLabel('Confirm password').fill('too-short');
    await page.getByLabel('Confirm password').press('Enter');
    await expect(page.getByText('Use at least 12 characters.', { exact: true })).toBeVisible();

    await page.getByLabel('New password').fill('long-enough-password');
    await page.getByLabel('Confirm password').fill('long-enough-password');
    await page.getByLabel('Confirm password').press('Enter');
    await expect(page).toHaveURL(/\/login$/);
    const toast = page.getByText('You can now sign in with your new password.');
    await expect(toast).toBeVisible();
    await page.waitForTimeout(3500);
    await expect(toast).toBeVisible();
    await expect(toast).toBeHidden({ timeout: 3000 });

    // The link was single-use, and the new password works.
    await page.goto(link);
    await expect(page.getByText('This link is invalid or has expired.')).toBeVisible();
    await signIn(page, user.email, 'long-enough-password');
  });
});
