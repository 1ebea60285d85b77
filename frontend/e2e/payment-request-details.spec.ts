import { expect, signIn, test } from './fixtures';
import { recentDay } from './dates';
import { apiAs, PASSWORD, world } from './requests';

// The payment request details list (/payment-requests/details) against the real server:
// requests of several forms and statuses made through the API, then filtered, sorted,
// paged and opened in the browser by the Coordinator of their program.

test('the details list filters, sorts, pages, sums the page and opens a row', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const participationId = w.participationId;
  const f5 = (topic: string, amount: number) =>
    coordinator.post('/payment-requests/F5', { participationId, description: topic, requestedAmount: amount, details: { seminarDate: recentDay(), topic, hours: 2 } });

  // Two approved F5s (30 and 40), a submitted F3, a draft F2, and seven draft F5s: eleven in all.
  const a = await f5('Seminar A', 50);
  const b = await f5('Seminar B', 30);
  const [purpose] = await coordinator.get('/payment-requests/travel-purposes');
  const [transit] = await coordinator.get('/payment-requests/transit-types');
  const f3 = await coordinator.post('/payment-requests/F3', {
    participationId,
    description: 'Site visits',
    details: { travelPurposeId: purpose.id, transitTypeId: transit.id, trips: [{ date: recentDay(), from: 'Fresno', to: 'Clovis', miles: 10 }] },
  });
  const f2 = await coordinator.post('/payment-requests/F2', {
    participationId,
    description: 'Books',
    details: { items: [{ date: recentDay(), description: 'Course reader', amount: 12.34 }] },
  });
  for (let i = 0; i < 7; i++) await f5(`Draft ${i}`, 1);
  for (const r of [a, b, f3]) await coordinator.post(`/payment-requests/${r.formType}/${r.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  const approve = (r: { id: number }, approvedAmount: number) =>
    w.api.post(`/payment-requests/F5/${r.id}/approve`, {
      approvedAmount,
      approvalCodeId: code.id,
      fundId: w.fund.id,
      expenseAccountId: w.account.id,
      acknowledgeWarnings: true,
    });
  await approve(a, 40);
  await approve(b, 30);

  // From the index, with its program filter.
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto(`/?MentorProgramId=${w.program.id}`);
  await page.getByRole('link', { name: 'Details list' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-requests/details\\?.*MentorProgramId=${w.program.id}`));
  const table = page.getByRole('table', { name: 'Payment request details' });
  const range = page.getByTestId('table-range');
  const rowOf = (name: string) => table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  // The address changes before React swaps the page (the lazy route renders in a transition):
  // until the details table is there, Home's own list (also 1–11 of 11, with its own "Rows per
  // page") is on screen, and a pick on its pager is lost when Home goes.
  await expect(table).toBeVisible();
  await expect(range).toHaveText('1–11 of 11');
  await page.getByRole('textbox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await expect(page).toHaveURL(/Size=10/);
  await expect(range).toHaveText('1–10 of 11');
  // Newest first: the seven drafts, the F2, the F3, B; A is on page 2.
  await expect(table.getByRole('row').nth(1)).toContainText('Draft 6');
  await expect(rowOf(`F3 #${f3.id}`)).toContainText(w.payeeName);
  await expect(rowOf(`F3 #${f3.id}`)).toContainText(w.program.name);
  await expect(rowOf(`F3 #${f3.id}`)).toContainText('Travel and mileage');
  await expect(page.getByTestId('page-requested')).toHaveText('$56.34'); // 7 × 1 + 12.34 + 7.00 + 30
  await expect(page.getByTestId('page-approved')).toHaveText('$30.00');
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/Page=2/);
  await expect(range).toHaveText('11–11 of 11');
  await expect(table.getByRole('link', { name: `F5 #${a.id}`, exact: true })).toBeVisible();
  await expect(page.getByTestId('page-approved')).toHaveText('$40.00');

  // Filter by form type (several) and status; the address bar keeps them.
  const filters = page.getByRole('region', { name: 'Filters' });
  /** A multi-select: open it, pick the options, close it. */
  // The dropdown stays open while the list reloads after each pick, as a user expects (it
  // closed after every pick while PageCard remounted the page body on each render; with a
  // value chosen, Mantine hides the search-less textbox, so it cannot be clicked again).
  const choose = async (label: string, ...options: string[]) => {
    await filters.getByRole('textbox', { name: label }).click();
    for (const option of options) await page.getByRole('option', { name: option }).click();
    await page.keyboard.press('Escape');
  };
  await choose('Form type', 'F2 Expense reimbursement', 'F3 Travel and mileage');
  await expect(page).toHaveURL(/FormType=F2%2CF3/);
  // The chosen types read whole in the narrow field: their codes (the list names them).
  await expect(filters.locator('.mantine-Pill-label')).toHaveText(['F2', 'F3']);
  await expect(range).toHaveText('1–2 of 2');
  await choose('Status', 'Submitted');
  await expect(range).toHaveText('1–1 of 1');
  await expect(table.getByRole('link', { name: `F3 #${f3.id}`, exact: true })).toBeVisible();
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(range).toHaveText('1–10 of 11');

  // Approved ones, sorted by approved amount both ways.
  await choose('Status', 'Approved');
  await expect(range).toHaveText('1–2 of 2');
  await table.getByRole('button', { name: /Approved/ }).click();
  await expect(page).toHaveURL(/IsApprovedAmountSortedAscending=true/);
  await expect(table.getByRole('row').nth(1).getByRole('link', { name: `F5 #${b.id}`, exact: true })).toBeVisible();
  await table.getByRole('button', { name: /Approved/ }).click();
  await expect(page).toHaveURL(/IsApprovedAmountSortedAscending=false/);
  await expect(table.getByRole('row').nth(1).getByRole('link', { name: `F5 #${a.id}`, exact: true })).toBeVisible();
  await expect(page.getByTestId('page-approved')).toHaveText('$70.00');

  // A reload shows the same list; a row opens with the keyboard and shows its details.
  await page.reload();
  await expect(table.getByRole('row').nth(1).getByRole('link', { name: `F5 #${a.id}`, exact: true })).toBeVisible();
  await table.getByRole('button', { name: /Approved/ }).click(); // back to the server's order
  await expect(page).not.toHaveURL(/SortedAscending/);
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  const toggle = table.getByRole('button', { name: `Show details of F2 #${f2.id}`, exact: true });
  await toggle.focus();
  await page.keyboard.press('Enter');
  const details = table.getByRole('group', { name: `Details of F2 #${f2.id}`, exact: true });
  await expect(details.getByRole('table', { name: `Items of F2 #${f2.id}`, exact: true })).toContainText('Course reader');
  await expect(details.getByRole('table', { name: `Items of F2 #${f2.id}`, exact: true })).toContainText('$12.34');
  await expect(details.getByText('No receipts attached.')).toBeVisible();
  await expect(table.getByRole('button', { name: `Hide details of F2 #${f2.id}`, exact: true })).toHaveAttribute('aria-expanded', 'true');
  await table.getByRole('button', { name: `Show details of F3 #${f3.id}`, exact: true }).click();
  const trip = table.getByRole('group', { name: `Details of F3 #${f3.id}`, exact: true });
  await expect(trip).toContainText(purpose.name);
  await expect(trip.getByRole('table', { name: `Trips of F3 #${f3.id}`, exact: true })).toContainText('Fresno');
  await trip.getByRole('link', { name: `Open F3 #${f3.id}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-request/F3/${f3.id}/details$`));
});

test('the details list filters by payee and says when nothing matches', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto(`/payment-requests/details?MentorProgramId=${w.program.id}`);
  // The payee picker lists the program's payees by name.
  await page.getByRole('textbox', { name: 'Payee' }).click();
  await page.getByRole('option', { name: new RegExp(`^${w.payeeName} `) }).click();
  await expect(page).toHaveURL(new RegExp(`ParticipationId=${w.participationId}`));
  await expect(page.getByTestId('table-empty')).toContainText('No payment requests match.');
  await expect(page.getByTestId('table-empty')).toContainText('Change or clear the filters to see more.');
});
