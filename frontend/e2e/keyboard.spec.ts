import { expect, signIn, test } from './fixtures';
import { chooseByTyping, focusProblems, tabTo } from './keyboard';
import { apiAs, PASSWORD, world } from './requests';

// The main flows by keyboard alone (see ./keyboard.ts): reachable in the Tab order, operable
// with Enter, Space and arrows, a focus ring on every stop, the focus moved to the page's heading
// after a navigation and back to its trigger when a dialog closes.

test.beforeEach(() => {
  focusProblems.length = 0;
});
test.afterEach(() => {
  expect(focusProblems, 'focus indicator').toEqual([]);
});

test('sign in, skip to content, and land on the page heading after a navigation', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in · MentorPay');
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type('admin@example.org');
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type('e2e-Admin-password-1');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Payment requests · MentorPay');

  // The first Tab stop of a page skips the header and the menu.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment requests' })).toBeFocused();

  // Back to the side menu; the new page's heading takes the focus, the title follows.
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await tabTo(page, menu.getByRole('link', { name: 'Budgets' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Budgets' })).toBeFocused();
  await expect(page).toHaveTitle('Budgets · MentorPay');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('send a request for revision with a reason; Escape gives the focus back to the button', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: '2026-10-01', topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});

  await signIn(page);
  await page.goto(`/payment-request/F5/${f5.id}/details`);
  const send = page.getByRole('button', { name: 'Send for revision' });
  await tabTo(page, send);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Send for revision' });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(send).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('The receipt is missing.');
  await tabTo(page, dialog.getByRole('button', { name: 'Send for revision' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'The request was sent back for revision.' })).toBeVisible();
  expect((await w.api.get(`/payment-requests/F5/${f5.id}`)).formStatus).toBe('RevisionRequested');
});

test('approve from the approve screen, then batch to ready for processing', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: '2026-10-01', topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});

  await signIn(page);
  await page.goto(`/payment-request/F5/${f5.id}/details`);
  await tabTo(page, page.getByRole('link', { name: 'Approve…' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/F5/${f5.id}/approve$`));
  const approval = page.getByRole('region', { name: 'Approval' });
  await tabTo(page, approval.getByRole('textbox', { name: 'Approval code' }));
  await chooseByTyping(page);
  await tabTo(page, approval.getByRole('textbox', { name: 'Fund' }));
  await chooseByTyping(page, w.fund.name);
  await tabTo(page, approval.getByRole('textbox', { name: 'Expense account' }));
  await chooseByTyping(page, w.account.name);
  await tabTo(page, approval.getByRole('button', { name: 'Check' }));
  await page.keyboard.press('Enter');
  const acknowledge = approval.getByLabel('I have read the warnings and approve anyway');
  await expect(approval.getByText('No problems found').or(acknowledge)).toBeVisible();
  if (await acknowledge.isVisible()) {
    await tabTo(page, acknowledge);
    await page.keyboard.press('Space');
  }
  await tabTo(page, approval.getByRole('button', { name: 'Approve', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/F5/${f5.id}/details$`));

  await page.goto(`/?MentorProgramId=${w.program.id}`);
  const table = page.getByRole('table', { name: 'Payment requests' });
  await tabTo(page, table.getByRole('checkbox', { name: `Select request ${f5.id}` }));
  await page.keyboard.press('Space');
  const move = page.getByRole('button', { name: /^Move to ready for processing/ });
  await tabTo(page, move);
  await page.keyboard.press('Enter');
  const ask = page.getByRole('dialog', { name: 'Move to ready for processing' });
  await expect(ask.getByRole('button', { name: 'Move them' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/1 request totalling \$25\.00 moved to ready for processing\./)).toBeVisible();
  expect((await w.api.get(`/payment-requests/F5/${f5.id}`)).formStatus).toBe('ReadyForProcessing');
});

test('export a report from its menu', async ({ page }) => {
  await signIn(page);
  await page.goto('/reports/all-approvals');
  const exportButton = page.getByTestId('export-menu').getByRole('button', { name: 'Export' });
  await tabTo(page, exportButton);
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'CSV' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.getByRole('status').filter({ hasText: /^Saved / })).toBeVisible();
});
