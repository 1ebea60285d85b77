import { findings, settled } from './axe';
import { now, recentDay } from './dates';
import { expect, signIn, storage, test } from './fixtures';
import { chooseOption, focusProblems, tabTo } from './keyboard';
import { apiAs, PASSWORD, world } from './requests';

// A new person's day with the forms, by keyboard: a save says every problem at once before
// any question, the focus is always somewhere sensible (the page's heading after a move or a
// sign-in, the control just used, the dialog's opener), selects take Enter and Space, and a
// half-filled form survives an idle sign-out.

test.beforeEach(() => {
  focusProblems.length = 0;
});
test.afterEach(() => {
  expect(focusProblems, 'focus indicator').toEqual([]);
});

/** A submitted F5 of the world's payee, filed by its Coordinator. */
async function submittedF5(w: Awaited<ReturnType<typeof world>>, request: Parameters<typeof world>[0], baseURL: string) {
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL, (await login.json()).accessToken);
  const f5 = await coordinator.post('/payment-requests/F5', {
    participationId: w.participationId,
    description: 'Seminar',
    requestedAmount: 25,
    details: { seminarDate: recentDay(), topic: 'Seminar', hours: 2 },
  });
  await coordinator.post(`/payment-requests/F5/${f5.id}/submit`, {});
  return f5 as { id: number };
}

test('an empty F2 says every problem at once, in words, with no question first', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto('/payment-request/F2/create');
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  const summary = page.getByRole('alert', { name: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(summary.getByRole('link')).toHaveText(['Choose the payee', 'Enter the item 1 date', 'Enter the item 1 description', 'Enter the item 1 amount']);
  const payee = page.getByRole('textbox', { name: 'Payee', exact: true });
  await expect(payee).toHaveAttribute('aria-invalid', 'true');
  await tabTo(page, summary.getByRole('link', { name: 'Choose the payee' }));
  await page.keyboard.press('Enter');
  await expect(payee).toBeFocused();
  await page.keyboard.press('Escape');
  await settled(page);
  expect(await findings(page, 'an empty F2 refused')).toEqual([]);
});

test('signing in and every move to another page put the focus on its heading', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const f5 = await submittedF5(w, request, baseURL!);
  await page.goto('/login');
  // The sign-in page puts the focus in its E-mail field once it has drawn.
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type('admin@example.org');
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type('e2e-Admin-password-1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment requests' })).toBeFocused();

  // A request's page shows a heading while it loads and another once loaded: the focus follows.
  await page.goto(`/?MentorProgramId=${w.program.id}`);
  const link = page.getByRole('table', { name: 'Payment requests' }).getByRole('link', { name: `F5 #${f5.id}` });
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Payment request F5 #${f5.id}` })).toBeFocused();
  await expect(page.getByText('Requested: $25.00')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Payment request F5 #${f5.id}` })).toBeFocused();
});

test('a row checkbox keeps the focus; the move dialog gives it back to its button', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const f5 = await submittedF5(w, request, baseURL!);
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  await w.api.post(`/payment-requests/F5/${f5.id}/approve`, {
    approvedAmount: 25,
    approvalCodeId: code.id,
    fundId: w.fund.id,
    expenseAccountId: w.account.id,
    acknowledgeWarnings: true,
  });
  await signIn(page);
  await page.goto(`/?MentorProgramId=${w.program.id}&FormStatus=Approved`);
  const box = page.getByRole('table', { name: 'Payment requests' }).getByRole('checkbox', { name: `Select request ${f5.id}` });
  await tabTo(page, box);
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');

  const move = page.getByRole('button', { name: /^Move to ready for processing/ });
  await tabTo(page, move);
  await page.keyboard.press('Enter');
  const ask = page.getByRole('dialog', { name: 'Move to ready for processing' });
  await expect(ask.getByRole('button', { name: 'Move them' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(move).toBeFocused();
  await expect(box).toBeChecked();
});

test('selects open and choose with Enter and Space; the status filter shows its focus', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const purposes: { name: string; isActive: boolean }[] = await w.api.get('/payment-requests/travel-purposes');
  const transits: { name: string; isActive: boolean }[] = await w.api.get('/payment-requests/transit-types');
  await signIn(page, w.coordinatorEmail, PASSWORD);

  // The status filter of the list: a multiselect whose box carries a ring of 2 px or more.
  const status = page.getByRole('textbox', { name: 'Status', exact: true });
  await tabTo(page, status);
  const ring = await status.evaluate((el) => {
    const box = getComputedStyle(el.closest('div.mantine-Input-input')!);
    return { style: box.outlineStyle, width: parseFloat(box.outlineWidth), colour: box.outlineColor };
  });
  expect(ring).toEqual({ style: 'solid', width: 3, colour: 'rgb(0, 118, 179)' });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/FormStatus=/);
  await page.keyboard.press('Escape');

  await page.goto('/payment-request/F3/create');
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  // Typed, then Enter: the first match.
  await tabTo(page, field('Mentor program'));
  await page.keyboard.type(w.program.name);
  await page.keyboard.press('Enter');
  await expect(field('Mentor program')).toHaveValue(w.program.name);
  // Enter opens on the first option, Enter takes it.
  await tabTo(page, field('Travel purpose'));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(field('Travel purpose')).toHaveValue(purposes.find((p) => p.isActive)!.name);
  // Space opens, ArrowDown moves, Space takes.
  await tabTo(page, field('Transit type'));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Space');
  await expect(page.getByRole('listbox')).toBeVisible();
  // The list opens on its first option, highlighted or not yet (Mantine highlights it a frame
  // later, or on the first arrow): the arrows move until the second one is, as a person's would.
  const second = transits.filter((t) => t.isActive)[1]!.name;
  const highlighted = page.getByRole('listbox').locator('[data-combobox-selected]');
  for (let presses = 0; presses < 2 && (await highlighted.textContent({ timeout: 200 }).catch(() => null)) !== second; presses++)
    await page.keyboard.press('ArrowDown');
  await expect(highlighted).toHaveText(second);
  await page.keyboard.press('Space');
  await expect(field('Transit type')).toHaveValue(transits.filter((t) => t.isActive)[1]!.name);
  await chooseOption(page, transits.filter((t) => t.isActive)[0]!.name);
  await expect(field('Transit type')).toHaveValue(transits.filter((t) => t.isActive)[0]!.name);
});

test('a half-filled request survives an idle sign-out and is restored after signing in', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  await page.clock.install({ time: now() });
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await page.goto('/payment-request/F2/create');
  await page.getByLabel('Description', { exact: true }).fill('Books for the mentees');
  await page.getByLabel('Item 1 description').fill('Three workbooks');

  // 15 minutes without activity: warned, then signed out.
  await page.clock.fastForward('14:00');
  await expect(page.getByRole('dialog', { name: 'Still there?' })).toBeVisible();
  await page.clock.runFor('02:30');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('You were signed out after 15 minutes without activity.')).toBeVisible();
  expect(await storage(page, 'refreshToken')).toBeNull();

  // Back in, the form is where it was, with its draft offered.
  await signIn(page, w.coordinatorEmail, PASSWORD);
  await expect(page).toHaveURL(/\/payment-request\/F2\/create$/);
  const offer = page.getByRole('region', { name: 'Unsaved draft' });
  await expect(offer).toContainText(/You have an unsaved draft from \w+ \d+, \d{4}, \d+:\d\d [AP]M\./);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('');
  await settled(page);
  expect(await findings(page, 'a draft offered')).toEqual([]);
  await tabTo(page, offer.getByRole('button', { name: 'Restore' }));
  await page.keyboard.press('Enter');
  await expect(offer).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Books for the mentees');
  await expect(page.getByLabel('Item 1 description')).toHaveValue('Three workbooks');

  // Saved, the draft is gone.
  await page.getByRole('textbox', { name: 'Mentor program' }).click();
  await page.getByRole('option', { name: w.program.name }).click();
  await page.getByRole('textbox', { name: 'Payee', exact: true }).click();
  await page.getByRole('option', { name: w.payeeName }).click();
  await page.getByLabel('Item 1 date').fill(recentDay());
  await page.getByLabel('Item 1 amount').fill('18.50');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/payment-request\/F2\/\d+\/details$/);
  const drafts = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')));
  expect(drafts).toEqual([]);
});

test('a half-filled participant is kept too, and Discard forgets it', async ({ page }) => {
  await signIn(page);
  await page.goto('/participant/create');
  const form = page.getByRole('form', { name: 'Participant' });
  await form.getByLabel('First name').fill('Dana');
  // Kept as it is typed; opened again (here after a reload), the form offers it back.
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')).length)).toBe(1);
  await page.reload();
  const offer = page.getByRole('region', { name: 'Unsaved draft' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Discard' }).click();
  await expect(offer).toBeHidden();
  await expect(form.getByLabel('First name')).toHaveValue('');
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')))).toEqual([]);
});
