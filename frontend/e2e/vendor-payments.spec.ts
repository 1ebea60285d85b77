import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { findings, settled } from './axe';
import { addDays, recentDay, today } from './dates';
import { expect, signIn, test } from './fixtures';
import { apiAs, PASSWORD, pick, world } from './requests';

// Vendor payments end to end: a Coordinator's two requests (an F1 and a vendor
// F9) are approved and batched to ready for processing in the browser; the vendor payment
// report is generated through its screens, its CSV downloaded and read; the requests show
// Processed with the report they were paid in; the same range then has nothing left to pay.

/** The day `offsetDays` from today (approvals happen today). */
const day = (offsetDays: number) => addDays(today(), offsetDays);

async function approveInBrowser(page: Page, form: string, id: number, fund: string, account: string) {
  await page.goto(`/payment-request/${form}/${id}/details`);
  await page.getByRole('link', { name: 'Approve…' }).click();
  await expect(page).toHaveURL(new RegExp(`/${form}/${id}/approve$`));
  const approval = page.getByRole('region', { name: 'Approval' });
  await pick(page, approval, 'Approval code');
  await pick(page, approval, 'Fund', fund);
  await pick(page, approval, 'Expense account', account);
  const acknowledge = approval.getByLabel('I have read the warnings and approve anyway');
  await expect(approval.getByText('No problems found').or(acknowledge)).toBeVisible();
  if (await acknowledge.isVisible()) await acknowledge.check();
  await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${form}/${id}/details$`));
}

/** RFC 4180 lines of a small CSV without quoted line breaks: cells per line. */
function csvRows(text: string): string[][] {
  const parse = (line: string) => {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted && c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) {
        cells.push(cell);
        cell = '';
      } else cell += c;
    }
    cells.push(cell);
    return cells;
  };
  return text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).map(parse);
}

test.describe('vendor payments', () => {
  test('approve, batch, generate through the screens, download the CSV; the same range then pays nothing', async ({ page, request, baseURL }) => {
    test.setTimeout(150_000);
    const w = await world(request, baseURL!);
    const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
    const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);

    // The Coordinator files and submits an F1 and a vendor payment (F9).
    const f1 = await coordinator.post('/payment-requests/F1', {
      participationId: w.participationId,
      description: 'Fall placement',
      requestedAmount: 120.5,
      details: { collegeId: 1, menteeName: 'Ana', courseCode: 'CD 101', placementStartDate: recentDay(), placementEndDate: today(), hours: 12.5 },
    });
    const f9 = await coordinator.post('/payment-requests/F9', {
      participationId: w.participationId,
      description: 'Classroom supplies',
      details: { vendorName: 'Acme, Supply "West"', vendorAddress: '9 Vendor Way, Fresno', invoiceNumber: 'INV-7', invoiceDate: recentDay(), amount: 80.25 },
    });
    for (const r of [f1, f9]) await coordinator.post(`/payment-requests/${r.formType}/${r.id}/submit`, {});

    // The Administrator approves both in the browser and batches them from the list.
    await signIn(page);
    await approveInBrowser(page, 'F1', f1.id, w.fund.name, w.account.name);
    await approveInBrowser(page, 'F9', f9.id, w.fund.name, w.account.name);
    await page.goto(`/?MentorProgramId=${w.program.id}`);
    const table = page.getByRole('table', { name: 'Payment requests' });
    await table.getByRole('checkbox', { name: `Select request ${f1.id}` }).check();
    await table.getByRole('checkbox', { name: `Select request ${f9.id}` }).check();
    await page.getByRole('button', { name: /^Move to ready for processing/ }).click();
    // The bulk action asks first, naming the count and the total.
    const ask = page.getByRole('dialog', { name: 'Move to ready for processing' });
    await expect(ask).toContainText(/Move 2 requests totalling \$[\d,]+\.\d{2} to ready for processing\?/);
    await ask.getByRole('button', { name: 'Move them' }).click();
    await expect(page.getByText(/2 requests totalling \$[\d,]+\.\d{2} moved to ready for processing\./)).toBeVisible();

    // The payee is renamed and moves after approval: she is paid as approved, and the
    // preview says so.
    const payee = await w.api.get(`/participants/${w.payeeId}`);
    const moved = { firstName: 'Renamed', lastName: payee.lastName, email: payee.email, status: 'Active', roleCode: 'Mentor' };
    await w.api.put(`/participants/${w.payeeId}`, { ...moved, address: '13 Elsewhere Road', version: payee.version });

    // Generate: the fiscal year of today is chosen; the approval dates around today.
    await page.goto('/reports/vendor-payment/list');
    await page.getByRole('link', { name: 'Generate report' }).click();
    await expect(page).toHaveURL(/\/reports\/vendor-payment\/generate$/);
    await expect(page.getByRole('textbox', { name: 'Fiscal year' })).not.toHaveValue('');
    await page.getByLabel('Approved from').fill(day(-1));
    await page.getByLabel('Approved to').fill(day(1));
    await page.getByLabel('Approved to').press('Tab');
    const preview = page.getByRole('table', { name: 'Requests to pay' });
    await expect(preview.getByRole('link', { name: `F1 #${f1.id}` })).toBeVisible();
    await expect(preview.getByRole('link', { name: `F9 #${f9.id}` })).toBeVisible();
    await expect(preview.getByRole('row').filter({ hasText: `F9 #${f9.id}` })).toContainText('Acme, Supply "West"');
    await expect(preview.getByRole('row').filter({ hasText: `F1 #${f1.id}` })).toContainText(w.payeeName);
    const changes = page.getByTestId('vendor-payment-payee-changes');
    await expect(changes.getByRole('link', { name: `F1 #${f1.id}` })).toBeVisible();
    await expect(changes).toContainText(`approved for ${w.payeeName}, now Renamed`);
    await expect(changes).not.toContainText(`F9 #${f9.id}`);
    const summary = page.getByTestId('vendor-payment-preview-summary');
    await expect(summary).toContainText('ready for processing, totalling $');
    const [, countText, total] = (await summary.innerText()).match(/^(\d+) requests? ready for processing, totalling (\$[\d,]+\.\d\d)\.$/)!;
    const count = Number(countText);
    expect(count).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Generate a vendor payment report for ${count} requests totalling ${total}? They will be marked Processed.`);
    await dialog.getByRole('button', { name: 'Generate' }).click();

    // The new entry's details page: its frozen rows and exports.
    await expect(page).toHaveURL(/\/reports\/vendor-payment\/\d+\/details$/);
    const reportId = Number(page.url().match(/vendor-payment\/(\d+)\/details/)![1]);
    await expect(page.getByRole('heading', { name: `Vendor payment report #${reportId}` })).toBeVisible();
    await expect(page.getByTestId('vendor-payment-summary')).toContainText(`${count} requests`);
    const rows = page.getByRole('table', { name: 'Payments in this report' });
    await expect(rows.getByRole('link', { name: `F1 #${f1.id}` })).toBeVisible();
    await expect(rows.getByRole('link', { name: `F9 #${f9.id}` })).toBeVisible();

    // The CSV: a header and one line per payment, the vendor named for the F9.
    const download = page.waitForEvent('download');
    await page.getByTestId('export-menu').getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^vendor-payment-report-\d+-\d{4}-\d\d-\d\d\.csv$/);
    const csv = csvRows(await readFile((await file.path())!, 'utf8'));
    const header = csv[0];
    expect(header).toEqual(['Payee', 'Payee address', 'Request', 'Form', 'Approved on', 'Approval code', 'Fund', 'Expense account', 'Amount']);
    expect(csv.length - 1).toBe(count);
    // Requests as every screen names them, forms by their labels, accounts with their codes.
    const line = (ref: string) => csv.find((cells) => cells[2] === ref)!;
    const account = w.account.code ? `${w.account.code} ${w.account.name}` : w.account.name;
    expect(line(`F1 #${f1.id}`)).toEqual(expect.arrayContaining([w.payeeName, 'F1 Placement stipend', w.fund.name, account, '120.50']));
    expect(line(`F9 #${f9.id}`)).toEqual(expect.arrayContaining(['Acme, Supply "West"', '9 Vendor Way, Fresno', 'F9 Vendor payment', '80.25']));

    // The requests are Processed and name the report they were paid in.
    await page.goto(`/payment-request/F9/${f9.id}/details`);
    await expect(page.getByText('Processed', { exact: true }).first()).toBeVisible();
    await page.getByTestId('paid-in-report').click();
    await expect(page).toHaveURL(new RegExp(`/reports/vendor-payment/${reportId}/details$`));
    expect((await w.api.get(`/payment-requests/F1/${f1.id}`)).formStatus).toBe('Processed');

    // The history lists it first; the same range has nothing left to pay.
    await page.goto('/reports/vendor-payment/list');
    const history = page.getByRole('table', { name: 'Vendor payment reports' });
    await expect(history.getByRole('row').nth(1)).toContainText(`#${reportId}`);
    await page.getByRole('link', { name: 'Generate report' }).click();
    await page.getByLabel('Approved from').fill(day(-1));
    await page.getByLabel('Approved to').fill(day(1));
    await page.getByLabel('Approved to').press('Tab');
    await expect(page.getByTestId('vendor-payment-preview-summary')).toHaveText('Nothing to pay: no request ready for processing was approved in this range.');
    await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeDisabled();
  });
});

test('the generate screen opens on the year and the days holding the ready requests, and says what a narrower range leaves out', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const r = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar to pay',
    requestedAmount: 30,
    details: { seminarDate: recentDay(), topic: 'Play', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${r.id}/submit`, {});
  const [code] = ((await w.api.get('/approval-codes')) as { id: number; paymentRequestType: string }[]).filter((c) => c.paymentRequestType === 'F5');
  await w.api.post(`/payment-requests/F5/${r.id}/approve`, { approvedAmount: 30, approvalCodeId: code.id, fundId: w.fund.id, expenseAccountId: w.account.id, acknowledgeWarnings: true });
  await w.api.post(`/payment-requests/F5/${r.id}/move-to-ready-for-processing`, {});

  // The server's figure: per year, how many wait and when the first and last were approved.
  type Ready = { fiscalYearId: number; fiscalYearName: string; count: number; firstApprovedAt: string; lastApprovedAt: string };
  const ready: Ready[] = await w.api.get('/reports/vendor-payments/ready');
  const most = ready.reduce((best, y) => (y.count > best.count ? y : best));
  await signIn(page);
  await page.goto('/reports/vendor-payment/generate');
  await expect(page.getByRole('textbox', { name: 'Fiscal year' })).toHaveValue(`${most.fiscalYearName} (${most.count} ready)`);
  const summary = page.getByTestId('vendor-payment-preview-summary');
  const all = `${most.count} ${most.count === 1 ? 'request' : 'requests'} ready for processing, totalling $`;
  await expect(summary).toContainText(all);
  const outside = page.getByTestId('vendor-payment-outside');
  await expect(outside).toHaveCount(0);
  await settled(page);
  expect(await findings(page, 'vendor payment, default range')).toEqual([]);

  // A day after the last approval: every ready request of the year is outside, and the screen says so.
  const lastDay = await page.evaluate((iso) => {
    const d = new Date(iso);
    d.setDate(d.getDate() + 1);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, most.lastApprovedAt);
  await page.getByLabel('Approved from').fill(lastDay);
  await page.getByLabel('Approved to').fill(lastDay);
  await page.getByLabel('Approved to').press('Tab');
  await expect(summary).toHaveText('Nothing to pay: no request ready for processing was approved in this range.');
  await expect(outside).toContainText(`${most.count} ${most.count === 1 ? 'request' : 'requests'} of ${most.fiscalYearName} ready for processing`);
  await expect(outside).toContainText('approved outside these dates');
  await settled(page);
  expect(await findings(page, 'vendor payment, requests outside the range')).toEqual([]);
  await outside.getByRole('button', { name: 'Widen the dates to include them' }).click();
  await expect(outside).toHaveCount(0);
  await expect(summary).toContainText(all);
});
