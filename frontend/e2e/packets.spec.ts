import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, signIn, test } from './fixtures';
import { recentDay, today } from './dates';
import { apiAs, PASSWORD, world, yearOfToday } from './requests';

// Packets from the screens: "Print packet" on a request's page and on a vendor payment's page
// saves a PDF named by the server, whose pages poppler reads back (the request, its picture
// receipt on a page of its own; the vendor payment's cover first).

const RECEIPT = readFileSync(new URL('../../tests/fixtures/receipts/receipt.png', import.meta.url));

const pdf = (path: string, tool: 'pdfinfo' | 'pdftotext') => execFileSync(tool, tool === 'pdftotext' ? ['-layout', path, '-'] : [path], { encoding: 'utf8' });
const pageCount = (path: string) => Number(pdf(path, 'pdfinfo').match(/^Pages:\s+(\d+)/m)![1]);

test('print the packet of a request and of its vendor payment', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  // The Coordinator files an F2 with a scanned receipt; the Administrator approves it.
  const [slot] = await coordinator.post('/fileupload/generate-upload-urls', { files: [{ fileName: 'scan.png', contentType: 'image/png', size: RECEIPT.length }] });
  const put = await request.fetch(`${baseURL}${slot.uploadUrl}`, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, data: RECEIPT });
  expect(put.status()).toBe(204);
  const f2 = await coordinator.post('/payment-requests/F2', {
    participationId: w.participationId,
    description: 'Classroom books',
    details: { items: [{ date: recentDay(), description: 'Picture books', amount: 12.5 }], fileIds: [slot.fileId] },
  });
  await coordinator.post(`/payment-requests/F2/${f2.id}/submit`, {});
  const codes: { id: number; paymentRequestType: string }[] = await w.api.get('/approval-codes');
  const code = codes.find((c) => c.paymentRequestType === 'F2')!;
  await w.api.post(`/payment-requests/F2/${f2.id}/approve`, { approvedAmount: 12.5, approvalCodeId: code.id, fundId: w.fund.id, expenseAccountId: w.account.id, acknowledgeWarnings: true });

  await signIn(page);
  await page.goto(`/payment-request/F2/${f2.id}/details`);
  let download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Print packet' }).click();
  let file = await download;
  expect(file.suggestedFilename()).toBe(`request-F2-${f2.id}.pdf`);
  let path = (await file.path())!;
  await expect(page.getByText(`Saved request-F2-${f2.id}.pdf`)).toBeVisible();
  let text = pdf(path, 'pdftotext');
  expect(text).toContain(`Payment request F2 #${f2.id}`);
  expect(text).toContain(w.payeeName);
  const pages = text.split('\f').filter((p) => p.trim());
  expect(pages.length).toBe(pageCount(path));
  expect(pages.at(-1)).toContain('Receipt 1 of 1: scan.png');

  // Paid in a vendor payment, the request is in that payment's packet, after its cover.
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [f2.id] });
  // Approved today: the range runs from the first day of today's year to today.
  const year = await yearOfToday(w.api);
  const range = `FiscalYearId=${year.id}&StartDate=${year.startDate}&EndDate=${today()}`;
  const preview = await w.api.get(`/reports/vendor-payments?${range}&Size=500`);
  const report = await w.api.post('/reports/vendor-payments', { fiscalYearId: year.id, startDate: year.startDate, endDate: today(), expectedCount: preview.totalCount, expectedTotal: preview.totals.amount });
  await page.goto(`/reports/vendor-payment/${report.id}/details`);
  download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Print packet' }).click();
  file = await download;
  expect(file.suggestedFilename()).toBe(`vendor-payment-${report.id}-packet.pdf`);
  path = (await file.path())!;
  text = pdf(path, 'pdftotext');
  const first = text.split('\f')[0];
  expect(first).toContain(`Vendor payment report #${report.id}`);
  expect(first).toContain(`F2 #${f2.id}`);
  expect(text.indexOf(`Payment request F2 #${f2.id}`)).toBeGreaterThan(first.length - 1);
  expect(pageCount(path)).toBeGreaterThanOrEqual(3);
});
