import type { FileChooser, Locator, Page } from '@playwright/test';
import { findings, settled, type Finding } from './axe';
import { fiscalYear, recentDay } from './dates';
import { expect, signIn, test } from './fixtures';
import { focusProblems, tabTo } from './keyboard';
import { apiAs, PASSWORD, unique, world, yearOfToday } from './requests';

// A fiscal year's two hard days, by keyboard: at year end it is closed with a reason (its
// budget turns read-only, the list says who closed it and why) and reopened; at year start the
// budget is copied forward with a raise, its totals previewed first, and the new participants
// are imported from a spreadsheet, a bad row shown before anything is written.

// Years of their own, far ahead of today's and of the ones other specs use (fiscal years may
// not overlap).
const LAST_YEAR = fiscalYear(18);
const NEXT_YEAR = fiscalYear(19);
const LAST = `FY ${LAST_YEAR.name}`;
const NEXT = `FY ${NEXT_YEAR.name}`;

test.beforeEach(() => {
  focusProblems.length = 0;
});
test.afterEach(() => {
  expect(focusProblems, 'focus indicator').toEqual([]);
});

/** Tabs (or with `back` Shift+Tabs) to `name`'s button or link and presses Enter on it. */
async function press(page: Page, scope: Page | Locator, name: string | RegExp, { role = 'button', back = false }: { role?: 'button' | 'link'; back?: boolean } = {}) {
  const target = scope.getByRole(role, { name });
  await tabTo(page, target, { back });
  await page.keyboard.press('Enter');
}

test('a year is closed with a reason and read-only, reopened, and its budget copied forward with a preview', async ({ page, request, baseURL }) => {
  const api = await apiAs(request, baseURL!);
  const tag = unique();
  const last = await api.post('/system-settings/fiscal-years', { ...LAST_YEAR, name: LAST });
  const next = await api.post('/system-settings/fiscal-years', { ...NEXT_YEAR, name: NEXT });
  const program = await api.post('/mentor-programs', { name: `Roll-over ${tag}`, code: `RO${tag}`.slice(0, 20) });
  const [fund] = await api.get('/funds');
  const [account] = await api.get('/expense-accounts');
  const line = (mentorProgramId: number, amount: number) => ({ mentorProgramId, fundId: fund.id, expenseAccountId: account.id, amount });
  const other = await api.post('/mentor-programs', { name: `Roll-over B ${tag}`, code: `RB${tag}`.slice(0, 20) });
  await api.put('/budgets/bulk-update', { fiscalYearId: last.id, lines: [line(program.id, 1000.5), line(other.id, 200.25)] });

  await signIn(page);
  await page.goto('/budget/list');
  const row = page.getByTestId('budgets-table').locator(`[data-fiscal-year="${LAST}"]`);
  await expect(row).toContainText('Open');

  // Close, asked for a reason first.
  await press(page, row, `Close… ${LAST}`);
  const closing = page.getByRole('dialog', { name: `Close ${LAST}` });
  await expect(closing.getByLabel('Reason')).toBeFocused();
  await press(page, closing, 'Close fiscal year');
  await expect(closing.getByText('A reason is required')).toBeVisible();
  await closing.getByLabel('Reason').fill('Books closed by the auditors');
  await press(page, closing, 'Close fiscal year');
  await expect(closing).toHaveCount(0);
  await expect(row).toContainText('Closed');
  await expect(row).toContainText('Books closed by the auditors');

  // Its budget is read-only and says who closed it, when and why.
  await press(page, row, LAST, { role: 'link', back: true });
  await expect(page.getByRole('heading', { name: `Budget ${LAST}` })).toBeVisible();
  const notice = page.getByTestId('closed-year');
  await expect(notice).toContainText(`${LAST} is closed`);
  await expect(notice).toContainText('Books closed by the auditors');
  await expect(notice).toContainText(/ by \S+/);
  await expect(page.getByTestId('budget-line')).toHaveCount(2);
  await expect(page.getByTestId('budget-grid').locator('input')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add line' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);

  // Reopened from there; then a refusal of the server (someone closed it meanwhile) is said in the dialog.
  await press(page, page, 'Reopen year…');
  const reopening = page.getByRole('dialog', { name: `Reopen ${LAST}` });
  await reopening.getByLabel('Reason').fill('A late invoice');
  await press(page, reopening, 'Reopen fiscal year');
  await expect(reopening).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('budget-grid').locator('input')).toHaveCount(2);
  await api.post(`/system-settings/fiscal-years/${last.id}/close`, { reason: 'Closed in another tab' });
  await press(page, page, 'Close year…');
  await closing.getByLabel('Reason').fill('Year end');
  await press(page, closing, 'Close fiscal year');
  await expect(closing.getByRole('alert')).toContainText(`${LAST} is already closed`);
  await page.keyboard.press('Escape');
  await api.post(`/system-settings/fiscal-years/${last.id}/reopen`, { reason: 'Not yet' });

  // The next year is empty: copy last year's lines with a 3.5 % raise, the totals shown first.
  await page.goto(`/budget/${next.id}/details`);
  await expect(page.getByText('No budget lines yet.').first()).toBeVisible();
  await press(page, page, 'Copy from last year…');
  const copying = page.getByRole('dialog', { name: `Copy a budget into ${NEXT}` });
  await expect(copying.getByRole('textbox', { name: 'Copy from' })).toHaveValue(LAST);
  await tabTo(page, copying.getByLabel('Change every amount by (%)'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('3.5');
  const preview = copying.getByTestId('copy-preview');
  await expect(preview).toContainText(`Total in ${LAST}$1,200.75`);
  // 1,000.50 and 200.25 raised by 3.5 %, each rounded to the cent: 1,035.52 + 207.26.
  await expect(copying.getByTestId('copy-total')).toHaveText('$1,242.78');
  await press(page, copying, 'Copy 2 lines');
  await expect(copying).toHaveCount(0);
  await expect(page.getByTestId('budget-line')).toHaveCount(2);
  await expect(page.getByTestId('total-budgeted')).toHaveText('$1,242.78');
  await expect(page.getByRole('button', { name: 'Copy from last year…' })).toHaveCount(0);
});

test('participants are imported from a CSV: a bad row is shown first, fixed, then the import confirmed', async ({ page }) => {
  const tag = unique();
  const csv = (second: string) =>
    Buffer.from(
      ['firstName,lastName,email,status,roleCode', `Ima,Porter ${tag},ima.${tag}@example.org,Active,Mentor`, `Ora,Porter ${tag},${second},Active,Mentor`, ''].join('\r\n'),
    );
  const choose = async (bytes: Buffer) => {
    const chooser: Promise<FileChooser> = page.waitForEvent('filechooser');
    await press(page, page, /^Choose (a|another) file…$/);
    await (await chooser).setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: bytes });
  };

  await signIn(page);
  await page.goto('/participant/list');
  await press(page, page, 'Import…', { role: 'link' });
  await expect(page.getByRole('heading', { name: 'Import participants' })).toBeVisible();

  // The dry run runs as soon as the file is chosen: the error first, nothing to import.
  await choose(csv('not-an-email'));
  const status = page.getByTestId('import-status');
  await expect(status).toHaveText('2 rows: 1 to create, 0 to update, 0 unchanged; 1 row with errors (1 problem).');
  const errors = page.getByRole('table', { name: 'Rows with errors' });
  await expect(errors.getByRole('row').nth(1)).toContainText('3E-mail');
  await expect(page.getByRole('button', { name: /^Import \d+ rows$/ })).toHaveCount(0);

  // The same file, corrected: both rows to create; confirmed, they are written.
  await choose(csv(`ora.${tag}@example.org`));
  await expect(status).toHaveText('2 rows: 2 to create, 0 to update, 0 unchanged.');
  await expect(errors).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Rows to import' }).getByRole('row')).toHaveCount(3);
  await press(page, page, 'Import 2 rows');
  await expect(page.getByText('Import finished')).toBeVisible();
  await expect(status).toHaveText('2 rows: 2 created, 0 updated, 0 unchanged.');

  await press(page, page, 'See the participant list', { role: 'link' });
  await expect(page.getByRole('heading', { name: 'Participant Management' })).toBeVisible();
  await page.getByRole('group', { name: /Filters/ }).getByLabel('Full name').fill(`Porter ${tag}`);
  await expect(page.getByRole('link', { name: `Ora Porter ${tag}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Ima Porter ${tag}` })).toBeVisible();
});

test("closing this year shows what is still open in it, with links; its requests then offer no approval and say why", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const w = await world(request, baseURL!);
  const year = await yearOfToday(w.api);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const submitted = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar before year end',
    requestedAmount: 40,
    details: { seminarDate: recentDay(), topic: 'Play', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${submitted.id}/submit`, {});
  const found: Finding[] = [];
  const axe = async (screen: string) => {
    await settled(page);
    found.push(...(await findings(page, screen)));
  };

  try {
    await signIn(page);
    await page.goto('/budget/list');
    const row = page.getByTestId('budgets-table').locator(`[data-fiscal-year="${year.name}"]`);
    await row.getByRole('button', { name: `Close… ${year.name}` }).click();
    const closing = page.getByRole('dialog', { name: `Close ${year.name}` });
    // What is still open, as the server counts it: one line per status, each a link to that list.
    const open = closing.getByRole('region', { name: `Still open in ${year.name}` });
    const preview = await w.api.get(`/budgets/${year.id}/close-preview`);
    await expect(open).toContainText(preview.summary);
    const submittedCount = preview.open.find((o: { formStatus: string }) => o.formStatus === 'Submitted').count as number;
    expect(submittedCount).toBeGreaterThanOrEqual(1);
    for (const o of preview.open as { label: string; count: number; afterClose: string }[]) {
      const name = `${o.label}: ${o.count} ${o.count === 1 ? 'request' : 'requests'}`;
      const item = open.getByRole('listitem').filter({ hasText: name });
      await expect(item.getByRole('link', { name })).toBeVisible();
      await expect(item).toContainText(o.afterClose);
    }
    await axe('close dialog with what is still open');
    await closing.getByLabel('Reason').fill('Year end');
    await closing.getByRole('button', { name: 'Close fiscal year' }).click();
    await expect(closing).toHaveCount(0);
    await expect(row).toContainText('Closed');

    // The Submitted link of the dialog: the list of this year's submitted requests.
    await page.goto(`/?FiscalYearId=${year.id}&FormStatus=Submitted`);
    await expect(page.getByTestId('year-filter')).toContainText(`Only requests charged to the fiscal year ${year.name} (closed).`);
    const list = page.getByRole('table', { name: 'Payment requests' });
    await expect(list.getByRole('link', { name: `F5 #${submitted.id}` })).toBeVisible();
    await axe('request list of one closed year');

    // Its request offers no approval, and says why in words.
    await list.getByRole('link', { name: `F5 #${submitted.id}` }).click();
    await expect(page).toHaveURL(new RegExp(`/F5/${submitted.id}/details$`));
    const notice = page.getByTestId('request-closed-year');
    await expect(notice).toContainText(`The fiscal year ${year.name} is closed`);
    await expect(notice).toContainText('cannot be edited, submitted, approved or moved back');
    await expect(page.getByRole('link', { name: 'Approve…' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send for revision' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
    await axe('request of a closed year');
    // Reopened, approval is offered again.
    await w.api.post(`/system-settings/fiscal-years/${year.id}/reopen`, { reason: 'Late invoice' });
    await page.reload();
    await expect(page.getByRole('link', { name: 'Approve…' })).toBeVisible();
    await expect(page.getByTestId('request-closed-year')).toHaveCount(0);
  } finally {
    const years: { id: number; closedAt?: string | null }[] = await w.api.get('/system-settings/fiscal-years');
    if (years.find((y) => y.id === year.id)?.closedAt) await w.api.post(`/system-settings/fiscal-years/${year.id}/reopen`, { reason: 'Test over' });
  }
  expect(found, found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`).join('\n')).toEqual([]);
});
