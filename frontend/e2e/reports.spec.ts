import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';
import { cell, exportFile, readCsv, readPdf, readXlsx, rowsWhere } from './reportFiles';
import { recentDay } from './dates';
import { apiAs, PASSWORD, unique, world, yearOfToday } from './requests';

// The report screens against the real server: a known set of requests made through the API
// (two programs sharing a fund and account of their own, an approval moved back and given
// again, a completion bonus), then every report opened, filtered and exported in the three
// formats as an Administrator, each saved file opened; and a Coordinator limited to its reports
// and its program's rows.

test.describe.configure({ mode: 'serial' });

async function makeData(request: APIRequestContext, baseURL: string) {
  const a = await world(request, baseURL);
  const b = await world(request, baseURL);
  const admin = a.api;
  const tag = unique();
  const fund = await admin.post('/funds', { name: `Report fund ${tag}`, code: `RF${tag}`.slice(0, 20) });
  const account = await admin.post('/expense-accounts', { name: `Report account ${tag}`, code: `RA${tag}`.slice(0, 20) });
  const year = await yearOfToday(admin);
  await admin.put('/budgets/bulk-update', {
    fiscalYearId: year.id,
    lines: [
      { mentorProgramId: a.program.id, fundId: fund.id, expenseAccountId: account.id, amount: 1000 },
      { mentorProgramId: b.program.id, fundId: fund.id, expenseAccountId: account.id, amount: 500 },
    ],
  });
  const coordinatorOf = async (email: string) => {
    const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email, password: PASSWORD } });
    return apiAs(request, baseURL, (await login.json()).accessToken);
  };
  const coordA = await coordinatorOf(a.coordinatorEmail);
  const coordB = await coordinatorOf(b.coordinatorEmail);
  const f5 = (api: typeof coordA, participationId: number, topic: string, amount: number) =>
    api.post('/payment-requests/F5', { participationId, description: topic, requestedAmount: amount, details: { seminarDate: recentDay(), topic, hours: 2 } });

  const seminarA = await f5(coordA, a.participationId, 'Seminar A', 50);
  const seminarB = await f5(coordA, a.participationId, 'Seminar B', 30);
  const bonus = await coordA.post('/payment-requests/F14', {
    participationId: a.participationId,
    description: 'Completion bonus',
    requestedAmount: 250,
    details: { bonusType: 'Completion', fiscalYearId: year.id, reason: 'Finished the year' },
  });
  const seminarD = await f5(coordB, b.participationId, 'Seminar D', 100);
  for (const r of [seminarA, seminarB, bonus]) await coordA.post(`/payment-requests/${r.formType}/${r.id}/submit`, {});
  await coordB.post(`/payment-requests/F5/${seminarD.id}/submit`, {});

  const codeOf = async (type: string) => ((await admin.get(`/approval-codes?PaymentRequestType=${type}`)) as { id: number }[])[0].id;
  const codes = { F5: await codeOf('F5'), F14: await codeOf('F14') };
  const approve = (r: { id: number; formType: 'F5' | 'F14' }, approvedAmount: number) =>
    admin.post(`/payment-requests/${r.formType}/${r.id}/approve`, {
      approvedAmount,
      approvalCodeId: codes[r.formType],
      fundId: fund.id,
      expenseAccountId: account.id,
      acknowledgeWarnings: true,
    });
  // Approved at 45, moved back, approved again at 40: two approvals, one reimbursement.
  await approve(seminarA, 45);
  await admin.post(`/payment-requests/F5/${seminarA.id}/move-back-to-submitted`, {});
  await approve(seminarA, 40);
  await approve(seminarB, 30);
  await approve(bonus, 250);
  await approve(seminarD, 100);
  return {
    year,
    fund,
    account,
    programA: a.program as { id: number; name: string },
    programB: b.program as { id: number; name: string },
    payeeA: a.payeeName,
    payeeEmailA: `${a.payeeName.replace(' ', '.')}@example.org`.toLowerCase(),
    payeeB: b.payeeName,
    coordinatorEmail: a.coordinatorEmail,
    ids: { seminarA: seminarA.id as number, seminarB: seminarB.id as number, bonus: bonus.id as number, seminarD: seminarD.id as number },
  };
}

let data: Awaited<ReturnType<typeof makeData>>;

test.beforeAll(async ({ playwright, server }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext();
  data = await makeData(request, server.url);
  await request.dispose();
});

const range = (page: Page) => page.getByTestId('table-range');
const total = (page: Page, key: string) => page.locator(`tfoot [data-total="${key}"]`);
const tableOf = (page: Page, name: string) => page.getByRole('table', { name });
const rowWith = (page: Page, table: string, text: string) => tableOf(page, table).locator('tbody tr').filter({ hasText: text });

/** A filter picker's option, by its whole name ('Mentor' is not 'Director mentor'). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Opens a report from its card on /reports (the card's link bears the report's title). */
async function openReport(page: Page, key: string) {
  await page.goto('/reports');
  const link = page.locator(`[data-report="${key}"]`).getByRole('link');
  const title = await link.innerText();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/reports/${key}$`));
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
}

/** CSV (BOM, header + rows, no totals line), XLSX (header + rows + Total) and PDF of one report.
 * The PDF shortens cells wider than their column, so its checks are short values (amounts). */
async function exportAll(
  page: Page,
  stem: string,
  expected: { count: number; key: [string, string | number]; values: Record<string, string>; pdf: string[] },
) {
  const csv = readCsv(await exportFile(page, 'CSV', stem));
  expect(csv.bom).toBe(true);
  expect(csv.rows.length - 1).toBe(expected.count);
  const [csvRow] = rowsWhere(csv.rows, ...expected.key);
  expect(csvRow, `CSV row ${expected.key.join('=')}`).toBeDefined();
  for (const [header, value] of Object.entries(expected.values)) expect(cell(csv.rows, csvRow, header)).toBe(value);

  const sheet = await readXlsx(await exportFile(page, 'Excel (XLSX)', stem));
  expect(sheet[0]).toEqual(csv.rows[0]);
  expect(sheet.length).toBe(expected.count + 2);
  expect(String(sheet[sheet.length - 1][0])).toMatch(/Total/);
  const [xlsxRow] = rowsWhere(sheet, ...expected.key);
  expect(xlsxRow, `XLSX row ${expected.key.join('=')}`).toBeDefined();
  for (const [header, value] of Object.entries(expected.values)) {
    const v = cell(sheet, xlsxRow, header);
    // Money and counts are typed numbers in the sheet.
    expect(typeof v === 'number' ? v : String(v)).toEqual(typeof v === 'number' ? Number(value) : value);
  }

  const pdf = readPdf(await exportFile(page, 'PDF', stem));
  for (const text of expected.pdf) expect(pdf).toContain(text);
  expect(pdf).toMatch(/Page 1 of \d+/);
}

test('the reports page shows an Administrator every report, a Coordinator only its two', async ({ page }) => {
  await signIn(page);
  await page.goto('/reports');
  const cards = page.getByRole('list', { name: 'Reports' }).locator('[data-report]');
  await expect(cards.first()).toBeVisible();
  const adminKeys = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-report')));
  expect(adminKeys).toEqual(
    expect.arrayContaining([
      'mentor-program-reimbursements',
      'participants',
      'approvals-by-accounts',
      'approvals-by-request-type',
      'all-approvals',
      'actual-vs-budget',
      'all-payments-requests',
      'historical-bonuses',
    ]),
  );

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await signIn(page, data.coordinatorEmail, PASSWORD);
  await page.goto('/reports');
  await expect(cards.first()).toBeVisible();
  expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-report')))).toEqual(['mentor-program-reimbursements', 'participants']);
});

test('mentor program reimbursements: filtered by program, sorted, totalled and exported', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'mentor-program-reimbursements');
  await choose(page, 'Mentor program', data.programA.name);
  await expect(page).toHaveURL(new RegExp(`MentorProgramId=${data.programA.id}`));
  await expect(range(page)).toHaveText('1–3 of 3');
  await expect(total(page, 'requestedAmount')).toHaveText('$330.00');
  await expect(total(page, 'approvedAmount')).toHaveText('$320.00');
  // Approved once at 40 in the end: the reimbursement carries the last approval.
  const rowA = tableOf(page, 'Mentor program reimbursements').locator('tbody tr').filter({ has: page.getByRole('link', { name: `F5 #${data.ids.seminarA}`, exact: true }) });
  await expect(rowA).toContainText('$40.00');
  await expect(rowA).toContainText(data.payeeA);

  // Sorting by the approved amount, descending: the bonus first; the sort is in the address bar.
  await tableOf(page, 'Mentor program reimbursements').getByRole('button', { name: 'Approved', exact: true }).click();
  await expect(page).toHaveURL(/SortBy=approvedAmount/);
  await tableOf(page, 'Mentor program reimbursements').getByRole('button', { name: 'Approved', exact: true }).click();
  await expect(page).toHaveURL(/SortDescending=true/);
  await expect(tableOf(page, 'Mentor program reimbursements').locator('tbody tr').first()).toContainText('$250.00');

  // A bookmark shows the same report.
  await page.reload();
  await expect(range(page)).toHaveText('1–3 of 3');
  await expect(page.getByRole('textbox', { name: 'Mentor program' })).toHaveValue(data.programA.name);

  await exportAll(page, 'mentor-program-reimbursements', {
    count: 3,
    key: ['Request', `F5 #${data.ids.seminarA}`],
    values: { Payee: data.payeeA, Approved: '40.00', Requested: '50.00', Form: 'F5 Seminar attendance', 'Expense account': `${data.account.code} ${data.account.name}` },
    pdf: ['Mentor program reimbursements', 'Mentor program:', '320.00', '330.00', `F5 #${data.ids.seminarA}`],
  });
});

test('all approvals: every approval of the log, by payee and form type', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'all-approvals');
  await choose(page, 'Mentor program', data.programA.name);
  await choose(page, 'Fiscal year', data.year.name);
  await choose(page, 'Payee', data.payeeA);
  await expect(page).toHaveURL(/PayeeId=\d+/);
  await expect(range(page)).toHaveText('1–4 of 4');
  await expect(total(page, 'approvedAmount')).toHaveText('$365.00');
  await choose(page, 'Form type', 'F5 Seminar attendance');
  await expect(range(page)).toHaveText('1–3 of 3');
  await expect(total(page, 'approvedAmount')).toHaveText('$115.00');
  const approvalsOfA = tableOf(page, 'All approvals').locator('tbody tr').filter({ has: page.getByRole('link', { name: `F5 #${data.ids.seminarA}`, exact: true }) });
  await expect(approvalsOfA).toHaveCount(2);
  await expect(approvalsOfA.nth(0)).toContainText('$45.00');
  await expect(approvalsOfA.nth(1)).toContainText('$40.00');

  const csv = readCsv(await exportFile(page, 'CSV', 'all-approvals'));
  expect(csv.rows.length - 1).toBe(3);
  expect(rowsWhere(csv.rows, 'Request', `F5 #${data.ids.seminarA}`).map((r) => cell(csv.rows, r, 'Approved'))).toEqual(['45.00', '40.00']);
  await exportAll(page, 'all-approvals', {
    count: 3,
    key: ['Request', `F5 #${data.ids.seminarB}`],
    values: { Payee: data.payeeA, Approved: '30.00' },
    pdf: ['All approvals', 'Form:', '45.00', '115.00'],
  });
});

test('approvals by request type: a chart above the table, every form type', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'approvals-by-request-type');
  await choose(page, 'Mentor program', data.programA.name);
  await expect(range(page)).toHaveText('1–14 of 14');
  const f5 = rowWith(page, 'Approvals by request type', 'Seminar attendance');
  await expect(f5).toContainText('$70.00');
  await expect(f5).toContainText('$35.00');
  await expect(total(page, 'approvedSum')).toHaveText('$320.00');
  const chart = page.getByTestId('request-type-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect(chart.locator('[data-category="F5 Seminar attendance"]')).toContainText('$70.00');
  await expect(chart.locator('[data-category="F14 Completion bonus"]')).toContainText('$250.00');

  await exportAll(page, 'approvals-by-request-type', {
    count: 14,
    key: ['Form', 'F5 Seminar attendance'],
    values: { Approved: '2', 'Approved amount': '70.00' },
    pdf: ['Approvals by request type', 'F14', '250.00', '320.00'],
  });
});

test('actual vs budget: the program line of its own fund, charted', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'actual-vs-budget');
  await choose(page, 'Mentor program', data.programA.name);
  await choose(page, 'Fund', data.fund.name);
  await expect(range(page)).toHaveText('1–1 of 1');
  const line = rowWith(page, 'Actual vs budget', data.account.name);
  for (const text of ['$1,000.00', '$320.00', '$680.00', '32.0%']) await expect(line).toContainText(text);
  const chart = page.getByTestId('actual-vs-budget-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect(chart.locator(`[data-category="${data.programA.name}"]`)).toContainText('Budgeted $1,000.00, Actual $320.00');

  await exportAll(page, 'actual-vs-budget', {
    count: 1,
    key: ['Expense account', `${data.account.code} ${data.account.name}`],
    values: { Program: data.programA.name, Budgeted: '1000.00', Actual: '320.00', Remaining: '680.00' },
    pdf: ['Actual vs budget', '320.00', '680.00'],
  });
});

test('approvals by accounts: a fund and account shared by two programs', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'approvals-by-accounts');
  await choose(page, 'Fiscal year', data.year.name);
  await page.getByRole('textbox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '100', exact: true }).click();
  await expect(page).toHaveURL(/Size=100/);
  const line = rowWith(page, 'Approvals by accounts', data.fund.name);
  await expect(line).toHaveCount(1);
  for (const text of ['$420.00', '$1,500.00', '$1,080.00']) await expect(line).toContainText(text);
  const count = Number((await range(page).innerText()).split(' of ')[1]);

  await exportAll(page, 'approvals-by-accounts', {
    count,
    key: ['Fund', data.fund.name],
    values: { Approvals: '4', Approved: '420.00', Budgeted: '1500.00', Remaining: '1080.00' },
    pdf: ['Approvals by accounts', '$420.00', '$1,080.00'],
  });
});

test('participants: the column choice is kept and exported; e-mail the filtered participants', async ({ page }) => {
  await signIn(page);
  await openReport(page, 'participants');
  await choose(page, 'Mentor program', data.programA.name);
  await expect(range(page)).toHaveText('1–2 of 2');
  await choose(page, 'Role', 'Mentor');
  await expect(page).toHaveURL(/RoleCode=Mentor/);
  await expect(range(page)).toHaveText('1–1 of 1');

  await page.getByRole('button', { name: /^Columns/ }).click();
  await page.getByRole('checkbox', { name: 'Last name' }).check();
  await page.getByRole('checkbox', { name: 'Phone' }).uncheck();
  await page.keyboard.press('Escape');
  const chosen = await page.evaluate(() => localStorage.getItem('participantsReportColumns'));
  expect(chosen).toBe('fullName,lastName,email,status,roleCode,mentorPrograms,updatedAt');
  await page.reload();
  await expect(tableOf(page, 'Participants').getByRole('columnheader', { name: /Last name/ })).toBeVisible();
  await expect(tableOf(page, 'Participants').getByRole('columnheader', { name: /Phone/ })).toHaveCount(0);

  const csv = readCsv(await exportFile(page, 'CSV', 'participants'));
  expect(csv.rows[0]).toEqual(['Full name', 'Last name', 'E-mail', 'Status', 'Role', 'Mentor programs', 'Updated']);
  expect(csv.rows.length - 1).toBe(1);
  expect(csv.rows[1][0]).toBe(data.payeeA);
  expect(csv.rows[1][2]).toBe(data.payeeEmailA);
  const sheet = await readXlsx(await exportFile(page, 'Excel (XLSX)', 'participants'));
  expect(sheet[0]).toEqual(csv.rows[0]);
  expect(sheet[1][0]).toBe(data.payeeA);
  const pdf = readPdf(await exportFile(page, 'PDF', 'participants'));
  // Cells wrap within their column, nothing is cut.
  expect(pdf).not.toContain('…');
  expect(pdf).toContain(data.payeeA);
  expect(pdf).toContain('Role: Mentor');

  await page.getByRole('button', { name: 'E-mail these participants' }).click();
  const dialog = page.getByRole('dialog', { name: 'E-mail these participants' });
  await expect(dialog.getByTestId('email-count')).toHaveText('1 participant with an e-mail address.');
  await expect(dialog.getByRole('textbox', { name: 'Addresses' })).toHaveValue(`${data.payeeA} <${data.payeeEmailA}>`);
  await expect(dialog.getByRole('link', { name: 'Open the mail client (Bcc)' })).toHaveAttribute('href', `mailto:?bcc=${encodeURIComponent(data.payeeEmailA)}`);
  await dialog.getByRole('button', { name: 'Copy the list' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Copied.');
});

test('all payment requests: every request of the chosen form type, with its form fields', async ({ page, request, baseURL }) => {
  await signIn(page);
  await openReport(page, 'all-payments-requests');
  await expect(page.getByRole('button', { name: 'Export every request' })).toBeDisabled();
  await choose(page, 'Form type', 'F14 Completion bonus');
  await expect(page).toHaveURL(/PaymentRequestType=F14/);
  const { totalCount } = await (await apiAs(request, baseURL!)).get('/payment-requests?FormType=F14&Size=1');

  const csv = readCsv(await exportFile(page, 'CSV', 'payment-requests-F14', page, 'Export every request'));
  expect(csv.rows.length - 1).toBe(totalCount);
  const [bonus] = rowsWhere(csv.rows, 'Request', `F14 #${data.ids.bonus}`);
  expect(cell(csv.rows, bonus, 'Payee')).toBe(data.payeeA);
  expect(cell(csv.rows, bonus, 'Approved')).toBe('250.00');
  expect(cell(csv.rows, bonus, 'Bonus type')).toBe('Completion');
  const sheet = await readXlsx(await exportFile(page, 'Excel (XLSX)', 'payment-requests-F14', page, 'Export every request'));
  expect(sheet[0]).toEqual(csv.rows[0]);
  expect(cell(sheet, rowsWhere(sheet, 'Request', `F14 #${data.ids.bonus}`)[0], 'Approved')).toBe(250);
  const pdf = readPdf(await exportFile(page, 'PDF', 'payment-requests-F14', page, 'Export every request'));
  // Many columns: wide cells wrap, every value whole.
  for (const text of ['Completion', data.year.name, '250.00']) expect(pdf).toContain(text);
});

test('historical bonuses: fiscal years with their bonus totals, each exported', async ({ page, request, baseURL }) => {
  await signIn(page);
  await openReport(page, 'historical-bonuses');
  const years: { fiscalYearId: number; fiscalYear: string; bonuses: number; approvedSum: number }[] = await (await apiAs(request, baseURL!)).get('/reports/bonuses/list');
  const mine = years.find((y) => y.fiscalYearId === data.year.id)!;
  const row = page.locator(`[data-fiscal-year="${mine.fiscalYear}"]`);
  await expect(row).toContainText(`$${mine.approvedSum.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
  const stem = `historical-bonuses-${mine.fiscalYear.replace(/\s+/g, '-')}`;
  const button = `Export ${mine.fiscalYear}`;

  const csv = readCsv(await exportFile(page, 'CSV', stem, row, button));
  expect(csv.rows.length - 1).toBe(mine.bonuses);
  const [bonus] = rowsWhere(csv.rows, 'Request', `F14 #${data.ids.bonus}`);
  expect(cell(csv.rows, bonus, 'Approved')).toBe('250.00');
  expect(cell(csv.rows, bonus, 'Bonus type')).toBe('Completion');
  const sheet = await readXlsx(await exportFile(page, 'Excel (XLSX)', stem, row, button));
  expect(sheet.length).toBe(mine.bonuses + 2);
  const pdf = readPdf(await exportFile(page, 'PDF', stem, row, button));
  for (const text of ['Completion', '250.00']) expect(pdf).toContain(text);
});

test("a Coordinator sees only its program's rows and cannot open other reports", async ({ page }) => {
  await signIn(page, data.coordinatorEmail, PASSWORD);
  await openReport(page, 'mentor-program-reimbursements');
  await expect(range(page)).toHaveText('1–3 of 3');
  await expect(tableOf(page, 'Mentor program reimbursements')).not.toContainText(data.payeeB);
  await expect(total(page, 'approvedAmount')).toHaveText('$320.00');
  const csv = readCsv(await exportFile(page, 'CSV', 'mentor-program-reimbursements'));
  expect(csv.rows.length - 1).toBe(3);
  expect(rowsWhere(csv.rows, 'Request', `F5 #${data.ids.seminarD}`)).toEqual([]);

  // Program B named in the address bar: refused in words, and none of B's rows shown.
  await page.goto(`/reports/mentor-program-reimbursements?MentorProgramId=${data.programB.id}`);
  await expect(page.getByRole('alert')).toContainText('outside your scope');
  await expect(page.getByText(data.payeeB)).toHaveCount(0);

  await page.goto('/reports/all-approvals');
  await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
});
