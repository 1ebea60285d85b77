import type { Page } from '@playwright/test';
import { findings, settled } from './axe';
import { recentDay } from './dates';
import { adminToken, expect, signIn, syncClock, test } from './fixtures';
import { apiAs, choosePayee, idOf, newRequest, PASSWORD, save, world } from './requests';

// Receipts seen in the page: a Coordinator attaches a PNG and a PDF to an F2; the request page
// (and the form, once saved) shows each (the image drawn, the PDF in the browser's viewer, a
// download beside it), gone through by keyboard; the approver sees them beside the approval
// fields; the list marks the request with its two receipts. axe finds nothing on either screen, and 320 px still reflows.

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A one-page PDF with a line of text, its cross-reference table at the right offsets. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const PDF = onePagePdf('Receipt 42.00');

/** Tabs forward until `name`'s button has the focus (at most `max` presses). */
async function tabTo(page: Page, name: string, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
    });
    if (focused === name) return;
  }
  throw new Error(`${name} was not reached by Tab`);
}

/** The image preview has drawn its picture (not a broken image). */
async function drawn(page: Page, name: string) {
  const img = page.getByRole('img', { name });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1);
}

/** The PDF preview is in the browser's PDF viewer. */
async function pdfShown(page: Page, title: string) {
  const frame = page.locator(`iframe[title="${title}"]`);
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('src', /^blob:/);
  // Chromium draws a PDF in a frame of its viewer inside the document the blob URL opened.
  const opened = await (await frame.elementHandle())!.contentFrame();
  await expect.poll(() => opened!.childFrames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);
}

test('receipts are previewed on the request page and beside the approval, and marked in the list', async ({ browser, page, request, baseURL }) => {
  test.setTimeout(120_000);
  const w = await world(request, baseURL!);
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await newRequest(page, 'F2');
  await choosePayee(page, w);
  await page.getByLabel('Item 1 date').fill(recentDay());
  await page.getByLabel('Item 1 description').fill('Books');
  await page.getByLabel('Item 1 amount').fill('42');
  const editor = page.getByRole('region', { name: 'Receipts' });
  // One after the other: the receipts are listed in the order their uploads finish.
  for (const [i, file] of [
    { name: 'till.png', mimeType: 'image/png', buffer: PNG },
    { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF },
  ].entries()) {
    const chooser = page.waitForEvent('filechooser');
    await editor.getByRole('button', { name: 'Add receipts…' }).click();
    await (await chooser).setFiles(file);
    await expect(editor.getByText('Uploaded; attached when you save')).toHaveCount(i + 1);
  }
  await save(page);
  await expect(page).toHaveURL(/\/payment-request\/F2\/\d+\/details$/);
  const id = idOf(page);

  // The request page: the first receipt is shown at once, the other one a keypress away.
  const receipts = page.getByTestId('receipts');
  const preview = receipts.getByTestId('receipt-preview');
  await drawn(page, 'Receipt till.png');
  await expect(preview).toContainText('Receipt 1 of 2: till.png');
  await tabTo(page, 'Show invoice.pdf');
  await page.keyboard.press('Enter');
  await expect(receipts.getByRole('button', { name: 'Show invoice.pdf' })).toHaveAttribute('aria-pressed', 'true');
  await pdfShown(page, 'Receipt invoice.pdf (PDF)');
  await expect(preview.getByRole('button', { name: 'Download invoice.pdf' })).toBeVisible();
  // Next goes round to the first again; the preview folds away and back.
  await preview.getByRole('button', { name: 'Next receipt' }).focus();
  await page.keyboard.press('Enter');
  await drawn(page, 'Receipt till.png');
  const toggle = preview.getByRole('button', { name: 'Hide preview' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('img', { name: 'Receipt till.png' })).toHaveCount(0);
  await expect(preview.getByRole('button', { name: 'Show preview' })).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Space');
  await drawn(page, 'Receipt till.png');
  await settled(page);
  expect(await findings(page, 'request page with a receipt preview')).toEqual([]);

  // At 320 px the page still reflows with the preview open: no sideways scroll of the page.
  await page.setViewportSize({ width: 320, height: 640 });
  await drawn(page, 'Receipt till.png');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The form page shows the saved receipts beside the fields too.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/F2/${id}/edit$`));
  await drawn(page, 'Receipt till.png');
  await page.getByRole('region', { name: 'Receipts' }).getByRole('button', { name: 'Show invoice.pdf' }).press('Enter');
  await pdfShown(page, 'Receipt invoice.pdf (PDF)');
  await page.goto(`/payment-request/F2/${id}/details`);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Submitted', { exact: true }).first()).toBeVisible();

  // The list marks the request with its two receipts.
  await page.goto('/');
  const row = page.getByRole('table', { name: 'Payment requests' }).getByRole('row').filter({ has: page.getByRole('link', { name: `F2 #${id}` }) });
  await expect(row.getByTestId('receipt-count')).toContainText('2 receipts');
  await expect(row.getByTestId('receipt-count')).toHaveAttribute('title', '2 receipts');

  // The approver: the receipts beside the approval fields, the PDF chosen by keyboard.
  const context = await browser.newContext({ baseURL });
  await syncClock(context);
  const admin = await context.newPage();
  await signIn(admin);
  await admin.goto(`/payment-request/F2/${id}/approve`);
  const decision = admin.getByTestId('approve-decision');
  await expect(decision.getByLabel('Approved amount')).toBeVisible();
  const shown = admin.getByTestId('receipts');
  await drawn(admin, 'Receipt till.png');
  const left = (await shown.boundingBox())!;
  const right = (await decision.boundingBox())!;
  expect(left.x + left.width).toBeLessThanOrEqual(right.x);
  await shown.getByRole('button', { name: 'Show invoice.pdf' }).focus();
  await admin.keyboard.press('Enter');
  await pdfShown(admin, 'Receipt invoice.pdf (PDF)');
  // The fields stay in view beside the receipt.
  await expect(decision.getByLabel('Approved amount')).toBeInViewport();
  await settled(admin);
  expect(await findings(admin, 'approve screen with a receipt preview')).toEqual([]);
  await context.close();

  // The preview route's own policy (no script, sandboxed: the integration test reads it) still
  // lets Chromium draw the PDF when the address is opened by itself.
  const token = await adminToken(request, baseURL!);
  const stored = await (await apiAs(request, baseURL!, token)).get(`/payment-requests/F2/${id}`);
  const pdf = (stored.files as { id: string; fileName: string }[]).find((f) => f.fileName === 'invoice.pdf')!;
  const direct = await browser.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const tab = await direct.newPage();
  const answer = await tab.goto(`/api/v1/payment-requests/F2/${id}/files/${pdf.id}/preview`);
  expect(answer!.status()).toBe(200);
  await expect.poll(() => tab.frames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);
  await direct.close();
});
