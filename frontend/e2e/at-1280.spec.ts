import type { Locator, Page } from '@playwright/test';
import { currentFiscalYear, fiscalYear, recentDay } from './dates';
import { findings } from './axe';
import { expect, signIn, test } from './fixtures';
import { apiAs, PASSWORD, pick, world } from './requests';

// The screens of a working day at 1280x800, the narrowest window the product promises: the
// home work list shows ten rows above the footer with whole descriptions; the approve screen
// keeps its decision in view and checks by itself; a wide report keeps the request and payee
// in place while the rest scrolls sideways; vendor payment generate says what waits per year.

test.describe.configure({ mode: 'serial' });

const FOOTER = 800 - 40;

/** The visible part of `target` in the window: top and bottom (px). */
const box = async (target: Locator) => {
  const b = await target.boundingBox();
  if (!b) throw new Error('not laid out');
  return { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width };
};

async function requests(page: Page, baseURL: string) {
  const w = await world(page.request, baseURL);
  const login = await page.request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(page.request, baseURL, (await login.json()).accessToken);
  return { w, coordinator };
}

test('home shows ten work-list rows above the footer; a long description wraps whole', async ({ page, baseURL }) => {
  const { w, coordinator } = await requests(page, baseURL!);
  const long = 'Seminar on reflective practice for new mentors, with a follow-up session';
  for (let i = 0; i < 12; i++)
    await coordinator.post('/payment-requests/F5', {
      participationId: w.participationId,
      description: i === 11 ? long : `Seminar ${i + 1}`,
      requestedAmount: 20 + i,
      details: { seminarDate: recentDay(), topic: `Topic ${i + 1}`, hours: 2 },
    });
  await signIn(page);
  await page.goto(`/?MentorProgramId=${w.program.id}`);
  const table = page.getByRole('table', { name: 'Payment requests' });
  await expect(table.getByTestId('description').filter({ hasText: long })).toBeVisible();
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(12);
  let whole = 0;
  for (const row of await rows.all()) if ((await box(row)).bottom <= FOOTER) whole += 1;
  expect(whole, 'rows wholly above the footer').toBeGreaterThanOrEqual(10);
  // The newest (the long one) is first: all of its words are there, on more than one line.
  const description = table.getByTestId('description').first();
  await expect(description).toHaveText(long);
  const [height, lineHeight, clipped] = await description.evaluate((el) => [
    el.getBoundingClientRect().height,
    parseFloat(getComputedStyle(el).lineHeight),
    el.scrollHeight > el.clientHeight + 0.5 || el.scrollWidth > el.clientWidth + 0.5,
  ]);
  expect(height).toBeGreaterThan(lineHeight * 1.5);
  expect(clipped).toBe(false);
});

test('approve: the decision stays in view beside the request and checks by itself', async ({ page, baseURL }) => {
  const { w, coordinator } = await requests(page, baseURL!);
  // A long request: thirty items push the document far below the window.
  const items = Array.from({ length: 30 }, (_, i) => ({ date: recentDay(), description: `Supplies ${i + 1}`, amount: 1.25 }));
  const f2 = await coordinator.post('/payment-requests/F2', { participationId: w.participationId, description: 'Classroom supplies', details: { items } });
  await coordinator.post(`/payment-requests/F2/${f2.id}/submit`, {});
  await signIn(page);
  await page.goto(`/payment-request/F2/${f2.id}/approve`);
  const approval = page.getByRole('region', { name: 'Approval' });
  const approve = approval.getByRole('button', { name: 'Approve', exact: true });
  // In view without scrolling: every field and both decisions.
  for (const control of [approval.getByLabel('Approved amount'), approval.getByRole('textbox', { name: 'Expense account' }), approve, approval.getByRole('button', { name: 'Send back…' })])
    expect((await box(control)).bottom).toBeLessThanOrEqual(FOOTER);
  await expect(approve).toBeDisabled();
  await pick(page, approval, 'Approval code');
  await pick(page, approval, 'Fund', w.fund.name);
  await pick(page, approval, 'Expense account', w.account.name);
  // No "Check" to press: the answer comes by itself and sits above the buttons.
  await expect(approval.getByRole('button', { name: 'Check' })).toHaveCount(0);
  await expect(approval.getByText('No problems found')).toBeVisible();
  await expect(approve).toBeEnabled();
  // Reading the request further down, the decision stays where it is.
  await page.mouse.move(300, 500);
  await page.mouse.wheel(0, 1200);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  const after = await box(approve);
  expect(after.top).toBeGreaterThanOrEqual(68);
  expect(after.bottom).toBeLessThanOrEqual(FOOTER);
  // A change asks again: a wrong amount blocks, with its reason beside the button.
  await approval.getByLabel('Approved amount').fill('9999');
  await expect(approval.getByRole('alert')).toContainText(/amount/i);
  await expect(approve).toBeDisabled();
});

/** Whether any status chip on the page shows less than its whole label. */
const cutChips = (page: Page) =>
  page.locator('.mantine-Badge-root').evaluateAll((chips) =>
    chips
      .flatMap((chip) => [chip, ...Array.from(chip.querySelectorAll<HTMLElement>('.mantine-Badge-label'))])
      .filter((el) => el.scrollWidth > el.clientWidth + 0.5)
      .map((el) => el.textContent),
  );

test('the reimbursements report shows its amounts without scrolling; more columns keep request and payee in place', async ({ page, baseURL }) => {
  const { w, coordinator } = await requests(page, baseURL!);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 40,
    details: { seminarDate: recentDay(), topic: 'Wide', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  await w.api.post(`/payment-requests/F5/${f5.id}/approve`, { approvedAmount: 40, approvalCodeId: code.id, fundId: w.fund.id, expenseAccountId: w.account.id, acknowledgeWarnings: true });
  await signIn(page);
  await page.goto(`/reports/mentor-program-reimbursements?MentorProgramId=${w.program.id}`);
  const region = page.getByRole('group', { name: 'Mentor program reimbursements', exact: true });
  const table = page.getByRole('table', { name: 'Mentor program reimbursements' });
  const reference = `F5 #${f5.id}`;
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: reference, exact: true }) });
  await expect(row).toBeVisible();
  // As opened: the request, payee, day, both amounts, the account with its code and the status,
  // every one inside the window and the table's frame, with nothing to scroll to.
  const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.replace(/[↕▲▼]/g, '').trim());
  expect(headers).toEqual(['Request', 'Payee', 'Approved on', 'Requested', 'Approved', 'Expense account', 'Status']);
  const frame = await box(region);
  expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  const approved = row.locator('td').nth(headers.indexOf('Approved'));
  await expect(approved).toHaveText('$40.00');
  for (const cell of [approved, row.locator('td').nth(headers.indexOf('Requested')), row.locator('td').last()]) {
    const b = await box(cell);
    expect(b.left).toBeGreaterThanOrEqual(frame.left - 1);
    expect(b.right).toBeLessThanOrEqual(Math.min(frame.right, 1280) + 1);
  }
  await expect(row.locator('td').nth(headers.indexOf('Expense account'))).toHaveText(w.account.code ? `${w.account.code} ${w.account.name}` : w.account.name);
  await expect(row.locator('td').nth(headers.indexOf('Approved on'))).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
  expect(await cutChips(page)).toEqual([]);
  expect(await findings(page, 'mentor program reimbursements at 1280 px')).toEqual([]);

  // Every column shown (the user's choice, kept): the identifying columns lead and stay in
  // place while the rest scrolls sideways.
  await page.getByRole('button', { name: /^Columns/ }).click();
  for (const name of ['Form', 'Payee e-mail', 'College', 'Submitted on', 'Fund', 'Approval code']) await page.getByRole('checkbox', { name, exact: true }).check();
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(row).toBeVisible();
  const all = await table.locator('thead th').allInnerTexts();
  expect(all.slice(0, 2).map((h) => h.replace(/[↕▲▼]/g, '').trim())).toEqual(['Request', 'Payee']);
  await expect(page.getByTestId('table-scroll-hint')).toContainText('More columns to the right');
  const request = row.getByRole('link', { name: reference, exact: true });
  const payee = row.getByText(w.payeeName);
  const before = { request: await box(request), payee: await box(payee) };
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(page.getByTestId('table-scroll-hint')).toContainText('More columns to the left');
  const status = row.locator('td').last();
  expect((await box(status)).right).toBeLessThanOrEqual((await box(region)).right + 1);
  expect(await box(request)).toEqual(before.request);
  expect((await box(payee)).left).toBeCloseTo(before.payee.left, 0);
  // Nothing scrolls under them unseen: the sticky cells cover what passes beneath.
  const covered = await row.locator('td').first().evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(covered).not.toBe('rgba(0, 0, 0, 0)');
});

test('status chips show their whole words in the lists at 1280 px', async ({ page, baseURL }) => {
  const { w, coordinator } = await requests(page, baseURL!);
  // The longest label, "Revision requested", among the others.
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar sent back',
    requestedAmount: 20,
    details: { seminarDate: recentDay(), topic: 'Chips', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});
  await w.api.post(`/payment-requests/F5/${f5.id}/send-for-revision`, { reason: 'Add the agenda' });
  await signIn(page);
  await page.goto(`/?MentorProgramId=${w.program.id}`);
  await expect(page.getByRole('table', { name: 'Payment requests' }).getByText('Revision requested').first()).toBeVisible();
  expect(await cutChips(page)).toEqual([]);
  await page.goto('/participants');
  await expect(page.locator('.mantine-Badge-root').first()).toBeVisible();
  expect(await cutChips(page)).toEqual([]);
});

test('vendor payment generate opens on a year with requests ready and says how many wait in each', async ({ page, baseURL }) => {
  const { w, coordinator } = await requests(page, baseURL!);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar to pay',
    requestedAmount: 25,
    details: { seminarDate: recentDay(), topic: 'Pay', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  await w.api.post(`/payment-requests/F5/${f5.id}/approve`, { approvedAmount: 25, approvalCodeId: code.id, fundId: w.fund.id, expenseAccountId: w.account.id, acknowledgeWarnings: true });
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [f5.id] });
  // The year before today's, with nothing ready in it (made once per server).
  const current = currentFiscalYear();
  const before = fiscalYear(-1);
  const years: { id: number; name: string }[] = await w.api.get('/system-settings/fiscal-years');
  if (!years.some((y) => y.name === before.name)) await w.api.post('/system-settings/fiscal-years', before);
  const waiting: { fiscalYearName: string; count: number }[] = await w.api.get('/reports/vendor-payments/ready');
  const now = waiting.find((y) => y.fiscalYearName === current.name)!;
  expect(now.count).toBeGreaterThanOrEqual(1);

  await signIn(page);
  await page.goto('/reports/vendor-payment/generate');
  const year = page.getByRole('textbox', { name: 'Fiscal year' });
  await expect(year).toHaveValue(`${current.name} (${now.count} ready)`);
  await expect(page.getByTestId('vendor-payment-waiting')).toHaveText(`Ready for processing: ${waiting.map((y) => `${y.count} in ${y.fiscalYearName}`).join(', ')}.`);
  await expect(page.getByTestId('vendor-payment-preview-summary')).toContainText(`${now.count} ${now.count === 1 ? 'request' : 'requests'} ready for processing`);
  await year.click();
  await expect(page.getByRole('option', { name: `${before.name} (nothing ready)` })).toBeVisible();
});
