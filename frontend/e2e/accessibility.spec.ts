import type { Page } from '@playwright/test';
import { findings, settled, type Finding } from './axe';
import { expect, signIn, test } from './fixtures';
import { fiscalYear, recentDay, today } from './dates';
import { apiAs, PASSWORD, pick, world, yearOfToday } from './requests';

// axe-core's WCAG 2.x A and AA rules on every route of the router, each in its loaded state with
// data, and on every dialog, menu and panel a person opens there. One signed-in page walks them
// all (one sign-in, one set of data made through the API), and the findings of every screen are
// reported together: a new violation anywhere fails the suite and names its screen.

/**
 * Opens a path inside the running app (as its links do), not by reloading it: the screens are
 * the same, the run is shorter. Before sign-in a full load.
 */
async function go(page: Page, path: string) {
  if (!page.url().startsWith('http')) return void (await page.goto(path));
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

/** Requests in the states the screens need, made through the API. */
async function seed(request: Parameters<typeof world>[0], baseURL: string) {
  const w = await world(request, baseURL);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL, (await login.json()).accessToken);
  const [purpose] = await coordinator.get('/payment-requests/travel-purposes');
  const [transit] = await coordinator.get('/payment-requests/transit-types');
  const f3 = () =>
    coordinator.post('/payment-requests/F3', {
      participationId: w.participationId,
      description: 'Site visits',
      details: { travelPurposeId: purpose.id, transitTypeId: transit.id, trips: [{ date: recentDay(), from: 'Fresno', to: 'Clovis', miles: 10 }] },
    });
  const f5 = (topic: string, amount: number) =>
    coordinator.post('/payment-requests/F5', {
      participationId: w.participationId,
      description: topic,
      requestedAmount: amount,
      details: { seminarDate: recentDay(), topic, hours: 2 },
    });
  const submitted = await f3();
  const draft = await f3();
  const paid = await f5('Seminar paid', 30);
  const ready = await f5('Seminar ready', 20);
  for (const r of [submitted, paid, ready]) await coordinator.post(`/payment-requests/${r.formType}/${r.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  for (const r of [paid, ready]) {
    await w.api.post(`/payment-requests/F5/${r.id}/approve`, {
      approvedAmount: r === paid ? 30 : 20,
      approvalCodeId: code.id,
      fundId: w.fund.id,
      expenseAccountId: w.account.id,
      acknowledgeWarnings: true,
    });
  }
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [paid.id] });
  const year = await yearOfToday(w.api);
  const range = { fiscalYearId: year.id, startDate: today(), endDate: today(), minutesOffset: 0 };
  const preview = await w.api.get(`/reports/vendor-payments?FiscalYearId=${year.id}&StartDate=${today()}&EndDate=${today()}&MinutesOffset=0&Page=1&Size=100`);
  const report = await w.api.post('/reports/vendor-payments', { ...range, expectedCount: preview.totalCount, expectedTotal: preview.totals.amount });
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [ready.id] });
  const participant = (await w.api.get(`/participants?FullName=${encodeURIComponent(w.payeeName)}`)).items[0];
  // A closed year with a line (its read-only budget) and an empty year after it (the copy
  // dialog), far ahead of today's and of the other specs' years (years may not overlap).
  const yearAhead = (n: number) => {
    const fy = fiscalYear(n);
    return { ...fy, name: `FY ${fy.name}` };
  };
  const closedYear = await w.api.post('/system-settings/fiscal-years', yearAhead(20));
  const emptyYear = await w.api.post('/system-settings/fiscal-years', yearAhead(21));
  await w.api.put('/budgets/bulk-update', {
    fiscalYearId: closedYear.id,
    lines: [{ mentorProgramId: w.program.id, fundId: w.fund.id, expenseAccountId: w.account.id, amount: 500 }],
  });
  await w.api.post(`/system-settings/fiscal-years/${closedYear.id}/close`, { reason: 'Books closed' });
  return { w, submitted, draft, report, year, participant, closedYear, emptyYear };
}

test.use({ actionTimeout: 10_000 });

test('every route, dialog, menu and panel passes axe-core WCAG 2.2 A and AA', async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { w, submitted, draft, report, year, participant, closedYear, emptyYear } = await seed(request, baseURL!);
  const found: Finding[] = [];
  const check = async (screen: string) => {
    await settled(page);
    found.push(...(await findings(page, screen)));
  };
  const visit = async (path: string, ready: (p: Page) => Promise<void>) => {
    await go(page, path);
    await ready(page);
    await check(path);
  };
  const heading = (name: string | RegExp) => async (p: Page) => {
    await expect.soft(p.getByRole('heading', { level: 1, name })).toBeVisible();
  };

  // Signed out.
  await visit('/login', heading('Sign in'));
  await visit('/forgot-password', heading('Forgot password'));
  await visit('/set-password?email=a%40example.org&token=x', heading('Set password'));

  await signIn(page);
  const program = `MentorProgramId=${w.program.id}`;
  await visit(`/?${program}`, heading('Payment requests'));
  await visit(`/payment-requests/details?${program}`, heading('Payment request details'));
  await visit('/payment-request/F3/create', heading('New payment request (F3)'));
  await visit(`/payment-request/F3/${submitted.id}/details`, heading(new RegExp(`F3 #${submitted.id}`)));
  await visit(`/payment-request/F3/${draft.id}/edit`, heading(new RegExp(`F3 #${draft.id}`)));
  await visit(`/payment-request/F3/${submitted.id}/approve`, heading(new RegExp(`F3 #${submitted.id}`)));
  await visit('/participant/list', heading('Participant Management'));
  await visit('/participant/create', heading(/New participant/));
  await visit('/participant/import', heading('Import participants'));
  await visit(`/participant/${participant.id}/details`, heading(new RegExp(w.payeeName)));
  await visit(`/participant/${participant.id}/edit`, heading(new RegExp(w.payeeName)));
  await visit('/settings', heading('Settings'));
  await visit('/settings/general', heading('General settings'));
  await visit('/settings/template-validation', heading('Template validation'));
  await visit('/settings/approval-rules', heading('Approval rules'));
  await visit('/settings/notification-banner', heading('Notification banner'));
  await visit('/settings/block-login', heading('Block login'));
  await visit('/settings/reference', heading('Reference lists'));
  await visit('/settings/reference/funds', heading('Reference lists'));
  await visit('/settings/users', heading('Users'));
  await visit('/settings/roles', heading('Roles'));
  await visit('/settings/outbox', async (p) => {
    await heading('Outbox')(p);
    await expect.soft(p.getByRole('table', { name: 'Outbox' }).getByRole('row').nth(1)).toBeVisible();
  });
  await visit('/settings/audit-log', async (p) => {
    await heading('Audit trail')(p);
    await expect.soft(p.getByTestId('audit-row').first()).toBeVisible();
  });
  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByTestId('chain-ok')).toBeVisible();
  await check('audit trail, chain checked');
  await visit('/budget/list', heading('Budgets'));
  await visit(`/budget/${year.id}/details`, heading(new RegExp(year.name)));
  await visit(`/budget/${closedYear.id}/details`, async (p) => {
    await heading(new RegExp(closedYear.name))(p);
    await expect.soft(p.getByTestId('closed-year')).toBeVisible();
  });
  await visit('/reports', heading('Reports'));
  for (const path of [
    'mentor-program-reimbursements',
    'participants',
    'approvals-by-accounts',
    'all-approvals',
    'approvals-by-request-type',
    'actual-vs-budget',
    'all-payments-requests',
    'historical-bonuses',
  ]) {
    await visit(`/reports/${path}`, async (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible());
  }
  await visit('/reports/vendor-payment/list', heading(/vendor payment/i));
  await visit(`/reports/vendor-payment/${report.id}/details`, heading(`Vendor payment report #${report.id}`));

  // The export menu, open.
  await page.getByTestId('export-menu').getByRole('button', { name: 'Export' }).click();
  await expect(page.getByRole('menuitem', { name: 'CSV' })).toBeVisible();
  await check('export menu');
  await page.keyboard.press('Escape');

  // The vendor payment preview, with a request to pay.
  await visit('/reports/vendor-payment/generate', heading(/vendor payment/i));
  await page.getByLabel('Approved from').fill(today());
  await page.getByLabel('Approved to').fill(today());
  await page.getByLabel('Approved to').press('Tab');
  await expect(page.getByTestId('vendor-payment-preview-summary')).toContainText('ready for processing');
  await check('vendor payment preview');

  // The approve panel, checked with warnings or none.
  await go(page, `/payment-request/F3/${submitted.id}/approve`);
  const approval = page.getByRole('region', { name: 'Approval' });
  await pick(page, approval, 'Approval code');
  await pick(page, approval, 'Fund', w.fund.name);
  await pick(page, approval, 'Expense account', w.account.name);
  await expect(approval.getByText('No problems found').or(approval.getByLabel('I have read the warnings and approve anyway'))).toBeVisible();
  await check('approve panel, checked');

  // Send for revision, with its error shown.
  await go(page, `/payment-request/F3/${submitted.id}/details`);
  await page.getByRole('button', { name: 'Send for revision' }).click();
  const revision = page.getByRole('dialog', { name: 'Send for revision' });
  await revision.getByRole('button', { name: 'Send for revision' }).click();
  await expect(revision.getByText('A reason is required')).toBeVisible();
  await check('send for revision dialog');
  await page.keyboard.press('Escape');

  // Both confirmation dialogs, from a participant being edited.
  await go(page, `/participant/${participant.id}/edit`);
  await page.getByLabel('Phone').fill('916-555-0199');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Cancel Changes' })).toBeVisible();
  await check('cancel changes dialog');
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog', { name: 'Save Changes' })).toBeVisible();
  await check('save changes dialog');
  await page.getByRole('button', { name: 'Keep editing' }).click();

  // A fiscal year's dialogs: reopen (its reason missing), copy a budget (its preview).
  await go(page, `/budget/${closedYear.id}/details`);
  await page.getByRole('button', { name: 'Reopen year…' }).click();
  const reopen = page.getByRole('dialog', { name: `Reopen ${closedYear.name}` });
  await reopen.getByRole('button', { name: 'Reopen fiscal year' }).click();
  await expect(reopen.getByText('A reason is required')).toBeVisible();
  await check('reopen fiscal year dialog');
  await page.keyboard.press('Escape');
  await go(page, `/budget/${emptyYear.id}/details`);
  await page.getByRole('button', { name: 'Copy from last year…' }).click();
  await expect(page.getByRole('dialog', { name: `Copy a budget into ${emptyYear.name}` }).getByTestId('copy-total')).toHaveText('$500.00');
  await check('copy budget dialog');
  await page.keyboard.press('Escape');

  // The import preview: a row in error, a row to create.
  await go(page, '/participant/import');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a file…' }).click();
  await (await chooser).setFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('firstName,lastName,email,status,roleCode\r\nIma,Axe,ima.axe@example.org,Active,Mentor\r\nBad,Axe,not-an-email,Active,Mentor\r\n'),
  });
  await expect(page.getByRole('table', { name: 'Rows with errors' })).toBeVisible();
  await check('import preview');

  // The user and role forms.
  await go(page, '/settings/users');
  await page.getByRole('button', { name: 'Invite user' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite a user' })).toBeVisible();
  await check('user form');
  await page.keyboard.press('Escape');
  await go(page, '/settings/roles');
  await page.getByRole('button', { name: 'New role' }).click();
  await expect(page.getByRole('dialog', { name: 'New role' })).toBeVisible();
  await check('role form');
  await page.keyboard.press('Escape');

  // The user's notifications, from the user menu.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Notifications…' }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' }).getByRole('radio', { name: 'At once' })).toBeChecked();
  await check('notifications dialog');
  await page.keyboard.press('Escape');

  // The user's out of office, from the user menu.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Out of office…' }).click();
  await expect(page.getByRole('dialog', { name: 'Out of office' }).getByLabel('First day away')).toBeVisible();
  await check('out-of-office dialog');

  expect(found, found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`).join('\n')).toEqual([]);
});
