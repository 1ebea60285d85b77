import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';
import { recentDay } from './dates';
import { apiAs, PASSWORD, world } from './requests';

// The request index (/) at the narrowest width the product promises (1280 px): every status
// badge shows its whole label, the totals per status fit, the page does not scroll sideways,
// and the selection for the batch move still works. Requests are made through the API.

/** Text cut by its box (an ellipsis or a clip): the element, its children or its boxes up to the
 * table cell / list item (a badge's label sits in a clipping root) are wider inside than outside. */
const clipped = (target: Locator) =>
  target.evaluate((el) => {
    const boxes = [...el.querySelectorAll('*')];
    for (let e: Element | null = el; e && !['TD', 'LI'].includes(e.tagName) && e.getAttribute('role') !== 'listitem'; e = e.parentElement) boxes.push(e);
    return boxes.some((e) => e.scrollWidth > e.clientWidth + 0.5);
  });

const pageScrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test('at 1280 px the index shows whole status labels and totals without scrolling sideways', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const f5 = (topic: string, amount: number) =>
    coordinator.post('/payment-requests/F5', {
      participationId: w.participationId,
      description: `${topic}: a seminar on reflective practice for new mentors, with readings and a follow-up session`,
      requestedAmount: amount,
      details: { seminarDate: recentDay(), topic, hours: 2 },
    });
  // One request per status (F5's maximum is $500).
  const draft = await f5('Draft', 123.45);
  const submitted = await f5('Submitted', 234.56);
  const revision = await f5('Revision', 345.67);
  const approved = await f5('Approved', 456.78);
  const ready = await f5('Ready', 499.01);
  for (const r of [submitted, revision, approved, ready]) await coordinator.post(`/payment-requests/F5/${r.id}/submit`, {});
  await w.api.post(`/payment-requests/F5/${revision.id}/send-for-revision`, { reason: 'Add the reading list' });
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  for (const r of [approved, ready])
    await w.api.post(`/payment-requests/F5/${r.id}/approve`, {
      approvedAmount: r.requestedAmount,
      approvalCodeId: code.id,
      fundId: w.fund.id,
      expenseAccountId: w.account.id,
      acknowledgeWarnings: true,
    });
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [ready.id] });

  // The Administrator sees the selection column too (the widest table).
  await signIn(page);
  await page.goto(`/?MentorProgramId=${w.program.id}`);
  const table = page.getByRole('table', { name: 'Payment requests' });
  await expect(page.getByTestId('table-range')).toHaveText('1–5 of 5');
  const rowOf = (id: number) => table.getByRole('row').filter({ has: page.getByRole('link', { name: `F5 #${id}`, exact: true }) });

  const labels: [number, string][] = [
    [draft.id, 'Draft'],
    [submitted.id, 'Submitted'],
    [revision.id, 'Revision requested'],
    [approved.id, 'Approved'],
    [ready.id, 'Ready for processing'],
  ];
  for (const [id, label] of labels) {
    const badge = rowOf(id).getByText(label, { exact: true });
    await expect(badge).toBeVisible();
    expect(await clipped(badge), `the "${label}" badge is cut`).toBe(false);
  }
  // Money and dates stay whole in their cells too.
  await expect(rowOf(ready.id)).toContainText('$499.01');

  // The totals per status: every label and amount whole.
  const totals = page.getByRole('list', { name: 'Totals per status' });
  await expect(totals.getByRole('listitem')).not.toHaveCount(0);
  for (const item of await totals.getByRole('listitem').all()) expect(await clipped(item), `a total is cut: ${await item.innerText()}`).toBe(false);
  await expect(totals.getByRole('button', { name: /^Ready for processing 1 / })).toContainText('$499.01');

  // No sideways scrolling, neither of the page nor of the table.
  expect(await pageScrollWidth(page)).toBeLessThanOrEqual(1280);
  const sideways = await table.evaluate((el) => {
    const wide: string[] = [];
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement)
      if (e.scrollWidth > e.clientWidth + 0.5) wide.push(`${e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
    return wide;
  });
  expect(sideways, 'boxes around the table that scroll sideways').toEqual([]);

  // The batch move still works from this layout.
  await expect(table.getByRole('checkbox')).toHaveCount(1);
  await table.getByRole('checkbox', { name: `Select request ${approved.id}` }).check();
  await page.getByRole('button', { name: 'Move to ready for processing (1)' }).click();
  // The bulk action asks first, naming the count and the total.
  const ask = page.getByRole('dialog', { name: 'Move to ready for processing' });
  await expect(ask).toContainText(/Move 1 request totalling \$[\d,]+\.\d{2} to ready for processing\?/);
  await ask.getByRole('button', { name: 'Move them' }).click();
  await expect(page.getByText(/1 request totalling \$[\d,]+\.\d{2} moved to ready for processing\./)).toBeVisible();
  await expect(rowOf(approved.id).getByText('Ready for processing', { exact: true })).toBeVisible();
  expect(await clipped(rowOf(approved.id).getByText('Ready for processing', { exact: true }))).toBe(false);
  await expect(page.getByTestId('count-ReadyForProcessing')).toHaveText('2');
});
