import type { Browser, Page } from '@playwright/test';
import { findings, settled, type Finding } from './axe';
import { addDays, recentDay, today } from './dates';
import { expect, signIn, syncClock, test } from './fixtures';
import { chooseOption, focusProblems, tabTo } from './keyboard';
import { apiAs, PASSWORD, pick, unique, world } from './requests';

// An approval chain from end to end: an Administrator gives one form three steps by keyboard
// (trying an amount on the way), a Coordinator submits a request above the last threshold, and
// three people take the steps, the second as the stand-in of an approver who is out of office.
// The request page then lists the three steps, the stand-in's "on behalf of" among them; the
// rules screen, the out-of-office dialog and the request page are checked by axe on the way.

// A form the other specs never approve: its rule goes back to the default at the end.
const FORM = 'F7';
const DEFAULT_RULE = { steps: [{ name: 'Approval', role: 'Administrator', fromAmount: 0 }] };
const APPROVER = ['request:read', 'request:approve', 'request:sendforrevision', 'fund:read', 'expenseaccount:read', 'mentorprogram:read'];

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  await syncClock(context);
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  return page;
}

/** The approve panel's code, fund and account. */
async function fillDecision(page: Page, w: { fund: { name: string }; account: { name: string } }) {
  const approval = page.getByRole('region', { name: 'Approval' });
  await pick(page, approval, 'Approval code');
  await pick(page, approval, 'Fund', w.fund.name);
  await pick(page, approval, 'Expense account', w.account.name);
}

/** Takes the current step on the approve page: code, fund and account, the amount, a clean check, Approve. */
async function approveStep(page: Page, id: number, heading: string, final: boolean, w: { fund: { name: string }; account: { name: string } }, amount?: string) {
  await page.goto(`/payment-request/${FORM}/${id}/approve`);
  const approval = page.getByRole('region', { name: 'Approval' });
  await expect(approval.getByTestId('approval-step')).toContainText(heading);
  await expect(approval.getByTestId('approval-step')).toContainText(final ? 'The final step' : 'Not the final step');
  if (amount) await approval.getByLabel('Approved amount').fill(amount);
  await fillDecision(page, w);
  const acknowledge = approval.getByLabel('I have read the warnings and approve anyway');
  await expect(approval.getByText('No problems found').or(acknowledge)).toBeVisible();
  if (await acknowledge.isVisible()) await acknowledge.check();
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-request/${FORM}/${id}/details$`));
}

test('a three-step chain set by keyboard, taken by three people, one standing in', async ({ page, browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const w = await world(request, baseURL!);
  const tag = unique();
  const role = async (name: string) => (await w.api.post('/identity/roles', { name: `${name} ${tag}`, permissions: APPROVER })).name as string;
  const [review, finance, director, standIns] = [await role('Program review'), await role('Finance'), await role('Director'), await role('Stand-in')];
  const person = async (first: string, roleName: string) => {
    const email = `${first}.${tag}@example.org`.toLowerCase();
    const user = await w.api.post('/identity/users', { email, firstName: first, lastName: tag, roles: [roleName], password: PASSWORD, mentorProgramIds: [w.program.id] });
    return { id: user.id as number, email, name: `${first} ${tag}` };
  };
  const reviewer = await person('Rita', review);
  const absent = await person('Abe', finance);
  const standIn = await person('Sam', standIns);
  const chief = await person('Dora', director);
  const found: Finding[] = [];
  const axe = async (p: Page, screen: string) => {
    await settled(p);
    found.push(...(await findings(p, screen)));
  };

  try {
    // The Administrator: three steps for the form, by keyboard only.
    await signIn(page);
    await page.goto('/settings/approval-rules');
    const row = page.getByRole('table', { name: 'Approval rules per form' }).locator(`tr[data-form-type="${FORM}"]`);
    await expect(row).toContainText('Approval (Administrator), any amount');
    await axe(page, 'approval rules');
    await tabTo(page, row.getByRole('button', { name: /^Edit / }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Approval rule: F7/ });
    const step = (n: number) => dialog.getByRole('group', { name: `Step ${n}` });
    await tabTo(page, step(1).getByLabel('Step 1 Name'));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Program review');
    await page.keyboard.press('Tab');
    await chooseOption(page, review, { type: true });
    for (const [n, name, roleName, from] of [
      [2, 'Finance review', finance, '1000'],
      [3, 'Director review', director, '2000'],
    ] as const) {
      await tabTo(page, dialog.getByRole('button', { name: 'Add a step' }));
      await page.keyboard.press('Enter');
      // The new step's name has the focus.
      await expect(step(n).getByLabel(`Step ${n} Name`)).toBeFocused();
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      await chooseOption(page, roleName, { type: true });
      await tabTo(page, step(n).getByLabel(`Step ${n} From amount`));
      await page.keyboard.type(from);
    }
    await tabTo(page, dialog.getByLabel('Requested amount'));
    await page.keyboard.type('1500');
    await expect(dialog.getByTestId('try-result')).toHaveText(/goes through 2 steps: 1\. Program review .*, 2\. Finance review/);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2500');
    await expect(dialog.getByTestId('try-result')).toContainText('goes through 3 steps');
    await axe(page, 'approval rule editor');
    await tabTo(page, dialog.getByRole('button', { name: 'Save Changes' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Director review (' + director + '), from $2,000.00');
    expect(focusProblems).toEqual([]);

    // The Coordinator submits a request above the last threshold.
    const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
    const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
    const day = recentDay();
    const created = await coordinator.post(`/payment-requests/${FORM}`, {
      participationId: w.participationId,
      description: 'Director mentor stipend',
      requestedAmount: 2500,
      details: { protegeName: 'Pia Protege', siteName: 'North site', startDate: day, endDate: day, placementEndDate: day },
    });
    await coordinator.post(`/payment-requests/${FORM}/${created.id}/submit`, {});

    // The approver of step 2 is away; her stand-in is chosen in her out-of-office dialog.
    const abe = await signedIn(browser, absent.email);
    await abe.getByRole('button', { name: /User menu/ }).click();
    await abe.getByRole('menuitem', { name: 'Out of office…' }).click();
    const away = abe.getByRole('dialog', { name: 'Out of office' });
    await away.getByLabel('First day away').fill(today());
    await away.getByLabel('Last day away').fill(addDays(today(), 7));
    await away.getByRole('textbox', { name: 'Stand-in' }).fill('Sam');
    await abe.getByRole('option', { name: new RegExp(`^${standIn.name}`) }).click();
    await axe(abe, 'out-of-office dialog');
    await away.getByRole('button', { name: 'Save' }).click();
    await expect(away).toBeHidden();
    await abe.getByRole('button', { name: /User menu/ }).click();
    await abe.getByRole('menuitem', { name: 'Out of office…' }).click();
    await expect(away.getByTestId('out-of-office-now')).toContainText(`${standIn.name} stands in for you`);
    await abe.context().close();

    // Step 3's approver may not take step 1: once the decision is filled in, the check says whose step it is.
    const dora = await signedIn(browser, chief.email);
    await dora.goto(`/payment-request/${FORM}/${created.id}/approve`);
    await fillDecision(dora, w);
    await expect(dora.getByTestId('step-refused')).toContainText('Step 1');

    const rita = await signedIn(browser, reviewer.email);
    await approveStep(rita, created.id, 'Step 1 of 3: Program review', false, w);
    await rita.context().close();

    // The stand-in finds it waiting for her on Home, and lowers the amount.
    const sam = await signedIn(browser, standIn.email);
    await expect(sam.getByTestId('waiting-count')).toHaveText('1');
    await sam.getByTestId('waiting-for-you').click();
    await expect(sam).toHaveURL(/WaitingForMe=true/);
    await expect(sam.getByRole('table', { name: 'Payment requests' }).getByRole('link', { name: `${FORM} #${created.id}` })).toBeVisible();
    await expect(sam.getByLabel('Waiting for me')).toBeChecked();
    await approveStep(sam, created.id, 'Step 2 of 3: Finance review', false, w, '2400.00');
    await sam.context().close();

    await approveStep(dora, created.id, 'Step 3 of 3: Director review', true, w);
    await expect(dora.getByText('Approved: $2,400.00')).toBeVisible();
    await dora.context().close();

    // The request page, as the Administrator sees it: three steps done, one on behalf of the absent approver.
    await page.goto(`/payment-request/${FORM}/${created.id}/details`);
    const steps = page.getByRole('table', { name: 'Approval steps' }).locator('tbody tr');
    await expect(steps).toHaveCount(3);
    for (const text of ['Program review', review, 'Done', reviewer.name]) await expect(steps.nth(0)).toContainText(text);
    await expect(steps.nth(1)).toContainText(`${standIn.name} on behalf of ${absent.name}`);
    await expect(steps.nth(1)).toContainText('$2,400.00');
    await expect(steps.nth(2)).toContainText(chief.name);
    for (const r of await steps.all()) await expect(r).toHaveAttribute('data-state', 'done');
    await axe(page, 'request page with its steps');
  } finally {
    await w.api.put(`/system-settings/approval-rules/${FORM}`, DEFAULT_RULE);
  }
  expect(found, found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`).join('\n')).toEqual([]);
});
