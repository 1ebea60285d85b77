import { readFile } from 'node:fs/promises';
import { addDays, recentDay, today } from './dates';
import { expect, signIn, syncClock, test } from './fixtures';
import { apiAs, choosePayee, idOf, newRequest, PASSWORD, pick, save, world } from './requests';

/** A 1×1 PNG: the server checks the first bytes against the announced type. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

// Payment requests end to end against the real server: a Coordinator files and submits an
// F1 and an F3 in the browser; an Administrator sends one back with a reason, checks and
// approves the other, and moves it to ready for processing from the list. Then the live
// amounts and the F2 receipts (upload with progress, download, removal).

/** The day `n` days before today, as a date input takes it. */
const daysAgo = (n: number) => addDays(today(), -n);

test.describe('payment requests', () => {
  test('a Coordinator files and submits F1 and F3; an Administrator sends one back and approves the other', async ({ browser, page, request, baseURL }) => {
    test.setTimeout(120_000);
    const w = await world(request, baseURL!);

    // --- Coordinator: F1 ---
    await signIn(page, w.coordinatorEmail, PASSWORD);
    await expect(page.getByRole('table', { name: 'Payment requests' })).toBeVisible();
    await newRequest(page, 'F1');
    await choosePayee(page, w);
    await page.getByLabel('Requested amount').fill('120');
    await page.getByLabel('Description').fill('Fall placement');
    await pick(page, page, 'College');
    await page.getByLabel('Mentee name').fill('Ana');
    await page.getByLabel('Course code').fill('CD 101');
    await page.getByLabel('Hours').fill('12.5');
    // A placement of the last days (inside F1's window); first with its end before its start.
    const placementStart = recentDay();
    await page.getByLabel('Placement start date').fill(placementStart);
    await page.getByLabel('Placement end date').fill(addDays(placementStart, -31));
    await save(page);
    // The server's field error lands on the field and in the summary at the top; nothing was created.
    await expect(page.getByRole('alert', { name: 'There is a problem' })).toContainText('Placement end date must not be before the placement start date');
    await expect(page.getByLabel('Placement end date')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/F1\/create$/);
    await page.getByLabel('Placement end date').fill(today());
    await save(page);
    await expect(page).toHaveURL(/\/payment-request\/F1\/\d+\/details$/);
    const f1 = idOf(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Submitted', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Activity log' })).toContainText('Submitted');

    // --- Coordinator: F3 with two trips; a bad trip is refused on its own field ---
    await newRequest(page, 'F3');
    await choosePayee(page, w);
    await pick(page, page, 'Travel purpose');
    await pick(page, page, 'Transit type');
    // Trips of the last days: inside F3's 60-day window, so Submit asks nothing (office.spec
    // covers a late one).
    await page.getByLabel('Trip 1 date').fill(daysAgo(2));
    await page.getByLabel('Trip 1 from').fill('Fresno');
    await page.getByLabel('Trip 1 to').fill('Clovis');
    await page.getByLabel('Trip 1 miles').fill('12.5');
    await page.getByRole('button', { name: 'Add trip' }).click();
    await page.getByLabel('Trip 2 date').fill(daysAgo(1));
    await page.getByLabel('Trip 2 from').fill('Clovis');
    await page.getByLabel('Trip 2 to').fill('Fresno');
    await page.getByLabel('Trip 2 miles').fill('0');
    // Seen in the browser, before any question: no confirmation, the summary at once.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert', { name: 'There is a problem' })).toContainText('Trip 2 miles must be more than 0');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByLabel('Trip 2 miles')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Trip 2 miles').fill('10');
    await save(page);
    await expect(page).toHaveURL(/\/payment-request\/F3\/\d+\/details$/);
    const f3 = idOf(page);
    // 22.5 miles at the default $0.70.
    await expect(page.getByText('Requested: $15.75')).toBeVisible();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Submitted', { exact: true }).first()).toBeVisible();

    // --- Administrator ---
    const adminContext = await browser.newContext({ baseURL });
    await syncClock(adminContext);
    const admin = await adminContext.newPage();
    await signIn(admin);
    // F1 goes back with a reason (required).
    await admin.goto(`/payment-request/F1/${f1}/details`);
    await admin.getByRole('button', { name: 'Send for revision' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Send for revision' });
    await dialog.getByRole('button', { name: 'Send for revision' }).click();
    await expect(dialog.getByText('A reason is required')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Please attach the course code of the spring term');
    await dialog.getByRole('button', { name: 'Send for revision' }).click();
    await expect(dialog).toBeHidden();
    await expect(admin.getByText('Revision requested', { exact: true }).first()).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Activity log' })).toContainText('Please attach the course code of the spring term');

    // F3 is checked, then approved.
    await admin.goto(`/payment-request/F3/${f3}/details`);
    await admin.getByRole('link', { name: 'Approve…' }).click();
    await expect(admin).toHaveURL(new RegExp(`/F3/${f3}/approve$`));
    const approval = admin.getByRole('region', { name: 'Approval' });
    await expect(approval.getByLabel('Approved amount')).toHaveValue('15.75');
    await pick(admin, approval, 'Approval code');
    await pick(admin, approval, 'Fund', w.fund.name);
    await pick(admin, approval, 'Expense account', w.account.name);
    // The check runs by itself once every field is filled.
    const acknowledge = approval.getByLabel('I have read the warnings and approve anyway');
    await expect(approval.getByText('No problems found').or(acknowledge)).toBeVisible();
    if (await acknowledge.isVisible()) await acknowledge.check();
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(admin).toHaveURL(new RegExp(`/F3/${f3}/details$`));
    await expect(admin.getByText('Approved: $15.75')).toBeVisible();

    // From the list: select the approved request and move it on.
    await admin.goto(`/?MentorProgramId=${w.program.id}`);
    const table = admin.getByRole('table', { name: 'Payment requests' });
    await expect(table.getByRole('link', { name: `F3 #${f3}` })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: `F3 #${f3}` })).toContainText(w.payeeName);
    await expect(table.getByRole('checkbox')).toHaveCount(1);
    await table.getByRole('checkbox', { name: `Select request ${f3}` }).check();
    await admin.getByRole('button', { name: /^Move to ready for processing/ }).click();
    const ask = admin.getByRole('dialog', { name: 'Move to ready for processing' });
    await expect(ask).toContainText('Move 1 request totalling $15.75 to ready for processing?');
    await ask.getByRole('button', { name: 'Move them' }).click();
    await expect(admin.getByText('1 request totalling $15.75 moved to ready for processing.')).toBeVisible();
    await expect(table.getByText('Ready for processing')).toBeVisible();
    // The totals follow, and a total filters the list by its status.
    await expect(admin.getByTestId('count-ReadyForProcessing')).toHaveText('1');
    await expect(admin.getByTestId('count-RevisionRequested')).toHaveText('1');
    await admin.getByRole('button', { name: /^Ready for processing 1 / }).click();
    await expect(admin).toHaveURL(/FormStatus=ReadyForProcessing/);
    await expect(table.getByRole('link', { name: `F1 #${f1}` })).toHaveCount(0);
    await expect(table.getByRole('link', { name: `F3 #${f3}` })).toBeVisible();
    const stored = await w.api.get(`/payment-requests/F3/${f3}`);
    expect(stored.formStatus).toBe('ReadyForProcessing');

    // The Coordinator may not move requests: no selection, no button.
    await page.goto(`/?MentorProgramId=${w.program.id}`);
    await expect(page.getByRole('table', { name: 'Payment requests' }).getByRole('link', { name: `F1 #${f1}` })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Move to ready for processing/ })).toHaveCount(0);

    // The Coordinator revises the F1 that came back (the edit carries its version) and submits again.
    await page.goto(`/payment-request/F1/${f1}/details`);
    await expect(page.getByRole('table', { name: 'Activity log' })).toContainText('Please attach the course code of the spring term');
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(new RegExp(`/F1/${f1}/edit$`));
    await page.getByLabel('Course code').fill('CD 101 / CD 102');
    await save(page);
    await expect(page).toHaveURL(new RegExp(`/F1/${f1}/details$`));
    // View mode reads as a document: the saved value is text, not an input.
    await expect(page.getByTestId('request-document')).toContainText('CD 101 / CD 102');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Submitted', { exact: true }).first()).toBeVisible();
  });

  test('the other forms render from their description: F10 shows hours × rate live', async ({ page, request, baseURL }) => {
    const w = await world(request, baseURL!);
    await signIn(page);
    await newRequest(page, 'F10');
    await choosePayee(page, w);
    await pick(page, page, 'Job category');
    await page.getByLabel('Date', { exact: true }).fill(recentDay());
    await page.getByLabel('Hours').fill('7.5');
    await page.getByLabel('Hourly rate').fill('22.40');
    await expect(page.getByTestId('computed-amount')).toHaveText('Amount: $168.00');
    await save(page);
    await expect(page).toHaveURL(/\/payment-request\/F10\/\d+\/details$/);
    await expect(page.getByText('Requested: $168.00')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  });
  test('changing the mileage rate in settings changes the F3 amount', async ({ page, request, baseURL }) => {
    const w = await world(request, baseURL!);
    await signIn(page);
    const setRate = async (rate: string) => {
      await page.goto('/settings/general');
      const field = page.getByLabel('Mileage rate (per mile)');
      await expect(field).not.toHaveValue('');
      await field.fill(rate);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('The general settings were saved.')).toBeVisible();
    };
    const fileF3 = async () => {
      await newRequest(page, 'F3');
      await choosePayee(page, w);
      await pick(page, page, 'Travel purpose');
      await pick(page, page, 'Transit type');
      await page.getByLabel('Trip 1 date').fill(recentDay());
      await page.getByLabel('Trip 1 from').fill('Fresno');
      await page.getByLabel('Trip 1 to').fill('Clovis');
      await page.getByLabel('Trip 1 miles').fill('10');
    };

    await setRate('0.80');
    await fileF3();
    await expect(page.getByTestId('computed-amount')).toContainText('$8.00');
    await save(page);
    await expect(page.getByText('Requested: $8.00')).toBeVisible();

    await setRate('0.65');
    await fileF3();
    await expect(page.getByTestId('computed-amount')).toContainText('$6.50');
    await save(page);
    await expect(page.getByText('Requested: $6.50')).toBeVisible();

    await setRate('0.70'); // the default, for the tests that follow
  });

  test('a Coordinator sees the live F3 amount while typing miles (rates without the settings)', async ({ page, request, baseURL }) => {
    const w = await world(request, baseURL!);
    await signIn(page, w.coordinatorEmail, PASSWORD);
    await newRequest(page, 'F3');
    const amount = page.getByTestId('computed-amount');
    await page.getByLabel('Trip 1 miles').fill('10');
    // The default $0.70 per mile (the settings test puts it back).
    await expect(amount).toHaveText('Amount: $7.00 ($0.70 per mile)');
    await page.getByLabel('Trip 1 miles').fill('12.5');
    await expect(amount).toContainText('$8.75');
    await page.getByRole('button', { name: 'Add trip' }).click();
    await page.getByLabel('Trip 2 miles').fill('0.25');
    await expect(amount).toContainText('$8.93');
  });

  test('a Coordinator attaches receipts to an F2 with progress, downloads one after saving and removes it', async ({ page, request, baseURL }) => {
    const w = await world(request, baseURL!);
    await signIn(page, w.coordinatorEmail, PASSWORD);
    await newRequest(page, 'F2');
    await choosePayee(page, w);
    await page.getByLabel('Item 1 date').fill(recentDay());
    await page.getByLabel('Item 1 description').fill('Books');
    await page.getByLabel('Item 1 amount').fill('12.34');

    const receipts = page.getByRole('region', { name: 'Receipts' });
    const chooser = page.waitForEvent('filechooser');
    await receipts.getByRole('button', { name: 'Add receipts…' }).click();
    await (await chooser).setFiles([
      { name: 'receipt.png', mimeType: 'image/png', buffer: PNG },
      // Refused here: not a type we take.
      { name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') },
      // Refused by the server: the bytes are no PDF.
      { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf') },
    ]);
    const row = (name: string) => receipts.getByRole('row').filter({ hasText: name });
    await expect(receipts.getByRole('progressbar', { name: 'Upload of receipt.png' })).toHaveAttribute('aria-valuenow', '100');
    await expect(row('receipt.png')).toContainText('Uploaded; attached when you save');
    await expect(row('receipt.png')).toContainText(`${PNG.length} B`);
    await expect(row('anim.gif')).toContainText('Only PDF, PNG, JPEG or HEIC files can be attached.');
    await expect(row('fake.pdf')).toContainText('The server refused the file: the bytes are not a application/pdf file.');
    await receipts.getByRole('button', { name: 'Dismiss anim.gif' }).click();
    await receipts.getByRole('button', { name: 'Dismiss fake.pdf' }).click();
    await expect(receipts.getByRole('row')).toHaveCount(2);
    await save(page);
    await expect(page).toHaveURL(/\/payment-request\/F2\/\d+\/details$/);
    const id = idOf(page);
    await expect(page.getByText('Requested: $12.34')).toBeVisible();

    // Reopened: the receipt is listed and downloads with the session's token.
    await page.goto(`/payment-request/F2/${id}/details`);
    const list = page.getByRole('table', { name: 'Receipts' });
    await expect(list.getByRole('row').filter({ hasText: 'receipt.png' })).toContainText(`${PNG.length} B`);
    const download = page.waitForEvent('download');
    await list.getByRole('button', { name: 'Download receipt.png' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('receipt.png');
    expect((await readFile(await file.path())).equals(PNG)).toBe(true);

    // Removed in edit mode, deleted by the save.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(new RegExp(`/F2/${id}/edit$`));
    await page.getByRole('region', { name: 'Receipts' }).getByRole('button', { name: 'Remove receipt.png' }).click();
    await expect(page.getByText('1 saved receipt is deleted when you save.')).toBeVisible();
    await save(page);
    await expect(page).toHaveURL(new RegExp(`/F2/${id}/details$`));
    await expect(page.getByText('No receipts attached.')).toBeVisible();
    const stored = await (await apiAs(request, baseURL!)).get(`/payment-requests/F2/${id}`);
    expect(stored.details.fileIds).toEqual([]);
    expect(stored.files).toEqual([]);
  });
});
