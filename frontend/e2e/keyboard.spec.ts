import { addDays, recentDay, today } from './dates';
import { expect, signIn, test } from './fixtures';
import { chooseOption, focusProblems, tabTo } from './keyboard';
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
  // Signed in, the person starts at the page's heading, not at the top of an empty body.
  await expect(page.getByRole('heading', { level: 1, name: 'Payment requests' })).toBeFocused();

  // On a page opened afresh, the first Tab stop skips the header and the menu.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment requests' })).toBeVisible();
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
    details: { seminarDate: recentDay(), topic: 'Seminar', hours: 2 },
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

test('a Coordinator files and submits an F3 with two trips', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const [purpose] = await w.api.get('/payment-requests/travel-purposes');
  const [transit] = await w.api.get('/payment-requests/transit-types');
  // Typed as a person types into the browser's date field: month, day, year (en-US).
  const day = (back: number) => {
    const [y, m, d] = addDays(today(), -back).split('-');
    return `${m}${d}${y}`;
  };
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto('/payment-request/F3/create');
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await tabTo(page, field('Mentor program'));
  await chooseOption(page, w.program.name, { type: true });
  await tabTo(page, field('Payee'));
  await chooseOption(page, w.payeeName, { type: true });
  await tabTo(page, field('Travel purpose'));
  await chooseOption(page, purpose.name);
  await tabTo(page, field('Transit type'));
  await chooseOption(page, transit.name);
  const trip = async (n: number, date: string, from: string, to: string, miles: string) => {
    await tabTo(page, field(`Trip ${n} date`));
    await page.keyboard.type(date);
    for (const [name, text] of [['from', from], ['to', to], ['miles', miles]]) {
      await tabTo(page, field(`Trip ${n} ${name}`));
      await page.keyboard.type(text);
    }
  };
  await trip(1, day(2), 'Fresno', 'Clovis', '12.5');
  await tabTo(page, page.getByRole('button', { name: 'Add trip' }));
  await page.keyboard.press('Enter');
  await trip(2, day(1), 'Clovis', 'Fresno', '10');
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/payment-request\/F3\/\d+\/details$/);
  await expect(page.getByText('Requested: $15.75')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Submitted', { exact: true }).first()).toBeVisible();
});

test('approve from the approve screen, then batch to ready for processing', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: recentDay(), topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});

  await signIn(page);
  await page.goto(`/payment-request/F5/${f5.id}/details`);
  await tabTo(page, page.getByRole('link', { name: 'Approve…' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/F5/${f5.id}/approve$`));
  const approval = page.getByRole('region', { name: 'Approval' });
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  await tabTo(page, approval.getByRole('textbox', { name: 'Approval code' }));
  await chooseOption(page, code.name);
  const fund = approval.getByRole('textbox', { name: 'Fund' });
  await tabTo(page, fund);
  await chooseOption(page, w.fund.name, { type: true });
  // A required choice is never emptied: it has no clear button, taking the chosen option
  // again keeps it, and erasing its words and leaving brings them back.
  await expect(approval.getByRole('button', { name: /^Clear/ })).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Enter');
  expect(await fund.inputValue()).toContain(w.fund.name);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await expect(fund).toHaveValue('');
  await tabTo(page, approval.getByRole('textbox', { name: 'Expense account' }));
  expect(await fund.inputValue()).toContain(w.fund.name);
  await chooseOption(page, w.account.name, { type: true });
  // The check runs by itself once every field is filled.
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
  // The dialog gives the focus back to its button, which stays (nothing left to move).
  await expect(ask).toBeHidden();
  await expect(move).toBeFocused();
  await expect(move).toHaveAttribute('aria-disabled', 'true');
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

test('edit a budget line; the save bar keeps the focused control in view', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  // A year of its own: one line to reach, not every line the other tests made.
  const start = 1901 + Math.floor(Math.random() * 98);
  const year = await w.api.post('/system-settings/fiscal-years', { name: `Keys ${start}`, startDate: `${start}-07-01`, endDate: `${start + 1}-06-30` });
  await w.api.put('/budgets/bulk-update', {
    fiscalYearId: year.id,
    lines: [{ mentorProgramId: w.program.id, fundId: w.fund.id, expenseAccountId: w.account.id, amount: 500 }],
  });
  await signIn(page);
  await page.goto(`/budget/${year.id}/details`);
  // The year's one line, named by its program, fund and account.
  const amount = page.getByRole('textbox', { name: new RegExp(`${w.program.name}, .*budgeted$`) });
  await tabTo(page, amount);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('1234.56');
  await tabTo(page, page.getByRole('button', { name: 'Save Changes' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: /budget lines? saved\./ })).toBeVisible();
  await expect(amount).toHaveValue(/1,?234\.56/);
});

test('edit a participant and a participation', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const payee = (await w.api.get(`/participants?FullName=${encodeURIComponent(w.payeeName)}`)).items[0];
  await signIn(page);
  await page.goto(`/participant/${payee.id}/edit`);
  await tabTo(page, page.getByLabel('Phone'));
  await page.keyboard.type('916-555-0142');
  await tabTo(page, page.getByRole('button', { name: 'Save Changes' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/participant/${payee.id}/details$`));
  expect((await w.api.get(`/participants/${payee.id}`)).phone).toBe('916-555-0142');

  const section = page.getByRole('region', { name: 'Participations' });
  const edit = section.getByRole('row').filter({ hasText: w.program.name }).getByRole('button', { name: 'Edit' });
  await tabTo(page, edit);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit participation' });
  await tabTo(page, dialog.getByRole('textbox', { name: 'Role in program' }));
  await chooseOption(page, 'Director mentor');
  await tabTo(page, dialog.getByRole('button', { name: 'Save participation' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  await expect(section.getByRole('row').filter({ hasText: w.program.name })).toContainText('Director mentor');
});

test('generate a vendor payment report', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: recentDay(), topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  await w.api.post(`/payment-requests/F5/${f5.id}/approve`, {
    approvedAmount: 25,
    approvalCodeId: code.id,
    fundId: w.fund.id,
    expenseAccountId: w.account.id,
    acknowledgeWarnings: true,
  });
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [f5.id] });
  const day = (shift: number) => addDays(today(), shift);

  await signIn(page);
  await page.goto('/reports/vendor-payment/list');
  await tabTo(page, page.getByRole('link', { name: 'Generate report' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/reports\/vendor-payment\/generate$/);
  await expect(page.getByRole('textbox', { name: 'Fiscal year' })).not.toHaveValue('');
  // Over what the fields hold, as a person selects the text and types.
  await tabTo(page, page.getByLabel('Approved from'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(day(-1));
  await tabTo(page, page.getByLabel('Approved to'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(day(1));
  await page.keyboard.press('Tab');
  const preview = page.getByRole('table', { name: 'Requests to pay' });
  await expect(preview.getByRole('link', { name: `F5 #${f5.id}` })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Generate', exact: true }));
  await page.keyboard.press('Enter');
  const ask = page.getByRole('dialog');
  await expect(ask.getByRole('button', { name: 'Generate' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/reports\/vendor-payment\/\d+\/details$/);
  await expect(page.getByRole('table', { name: 'Payments in this report' }).getByRole('link', { name: `F5 #${f5.id}` })).toBeVisible();
  expect((await w.api.get(`/payment-requests/F5/${f5.id}`)).formStatus).toBe('Processed');
});

test('choose daily mail from the user menu; the dialog gives the focus back to the menu', async ({ page }) => {
  await signIn(page);
  const userMenu = page.getByRole('button', { name: /User menu/ });
  await tabTo(page, userMenu);
  await page.keyboard.press('Enter');
  const entry = page.getByRole('menuitem', { name: 'Notifications…' });
  for (let i = 0; i < 5 && !(await entry.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(entry).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByRole('radio', { name: 'At once' })).toBeChecked();
  // The group is one Tab stop, on the choice in force; arrows change it.
  await tabTo(page, dialog.getByRole('radio', { name: 'At once' }));
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Once a day' })).toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'E-mail: once a day.' })).toBeVisible();
  await expect(userMenu).toBeFocused();

  // Opened again, it shows the saved choice; put back to at once for the other tests.
  await page.keyboard.press('Enter');
  for (let i = 0; i < 5 && !(await entry.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('radio', { name: 'Once a day' })).toBeChecked();
  await tabTo(page, dialog.getByRole('radio', { name: 'Once a day' }));
  await page.keyboard.press('ArrowUp');
  await tabTo(page, dialog.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
});

test('the outbox: its count on Settings, then filtered by status', async ({ page, request, baseURL }) => {
  // A submission queues a mail to the approvers (written to the log: the test server has no relay).
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: recentDay(), topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});

  await signIn(page);
  await page.goto('/settings');
  await expect(page.getByTestId('outbox-waiting-count')).toHaveText(/^\d+ waiting to be sent$/);
  await tabTo(page, page.getByRole('link', { name: 'Outbox' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeFocused();
  const table = page.getByRole('table', { name: 'Outbox' });
  await expect(table.getByRole('row').filter({ hasText: `Seminar attendance request F5 #${f5.id} was submitted for approval` }).first()).toBeVisible();
  await tabTo(page, page.getByRole('textbox', { name: 'Status' }));
  await chooseOption(page, 'Failed');
  await expect(page).toHaveURL(/Status=failed/);
  await expect(table.getByText('No mails in this state.')).toBeVisible();
  await tabTo(page, page.getByRole('textbox', { name: 'Status' }), { back: true });
  await chooseOption(page, 'Sent');
  await expect(page).toHaveURL(/Status=sent/);
  await expect(table.getByRole('row').filter({ hasText: `#${f5.id} was submitted` }).first()).toContainText('Written to the log');
  // An optional filter empties by its named ×, the stop right after it; the focus goes back
  // to the field, and every mail shows again.
  const status = page.getByRole('textbox', { name: 'Status' });
  await tabTo(page, page.getByRole('button', { name: 'Clear Status' }));
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/Status=/);
  await expect(status).toHaveValue('');
  await expect(status).toBeFocused();
  await expect(page.getByRole('button', { name: 'Clear Status' })).toHaveCount(0);
});

test('a refused save sums up its errors at the top; each links to its field', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto('/payment-request/F5/create');
  // Nothing filled in: refused in the browser, every field at once, with no question first.
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  const summary = page.getByRole('alert', { name: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Each field in error is a link; following one puts the focus on its field.
  const first = summary.getByRole('link').first();
  await expect(first).toBeVisible();
  const field = page.locator(`[id="${(await first.getAttribute('href'))!.slice(1)}"]`);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await tabTo(page, first);
  await page.keyboard.press('Enter');
  await expect(field).toBeFocused();
});
