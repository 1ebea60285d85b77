import type { APIRequestContext, Page } from '@playwright/test';
import { fiscalYear } from './dates';
import { adminToken, expect, signIn, syncClock, test } from './fixtures';

/** A mentor program, fund and expense account, created through the API (reference data, not this screen's job). */
async function referenceData(request: APIRequestContext, baseURL: string, tag: string) {
  const headers = { Authorization: `Bearer ${await adminToken(request, baseURL)}` };
  const create = async (path: string, name: string, code: string) => {
    const response = await request.post(`${baseURL}/api/v1/${path}`, { headers, data: { name, code } });
    expect(response.status(), await response.text()).toBe(201);
    return { label: `${code} ${name}`, id: (await response.json()).id as number };
  };
  const programA = await create('mentor-programs', `North Valley ${tag}`, `NV${tag}`);
  return {
    programA: programA.label,
    programAId: programA.id,
    programB: (await create('mentor-programs', `Coastal ${tag}`, `CO${tag}`)).label,
    fund: (await create('funds', `General Fund ${tag}`, `GF${tag}`)).label,
    account: (await create('expense-accounts', `Stipends ${tag}`, `ST${tag}`)).label,
  };
}

/** A Coordinator login for a participant coordinating `programId` in the fiscal year named `year`. */
async function createProgramCoordinator(request: APIRequestContext, baseURL: string, programId: number, year: string, startDate: string, tag: string) {
  const headers = { Authorization: `Bearer ${await adminToken(request, baseURL)}` };
  const years = await (await request.get(`${baseURL}/api/v1/system-settings/fiscal-years`, { headers })).json();
  const fiscalYearId = (years as { id: number; name: string }[]).find((y) => y.name === year)!.id;
  const email = `cora.${tag}@example.org`;
  const created = await request.post(`${baseURL}/api/v1/participants`, {
    headers,
    data: {
      firstName: 'Cora', lastName: `Budget ${tag}`, email, status: 'Active', roleCode: 'Coordinator',
      participations: [{ mentorProgramId: programId, fiscalYearId, roleCode: 'Coordinator', startDate }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const password = 'Coordinator-password-1';
  const login = await request.post(`${baseURL}/api/v1/participants/${(await created.json()).id}/identity-user`, { headers, data: { password } });
  expect(login.status(), await login.text()).toBe(201);
  return { email, password };
}

async function confirmSave(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Save Changes' });
  await expect(dialog.getByText('Are you sure you want to save the changes?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('budgets', () => {
  test('create a fiscal year, add and edit budget lines, save, reload; read-only for a Coordinator', async ({ page, request, baseURL, browser }) => {
    const tag = String(Date.now()).slice(-6);
    const ref = await referenceData(request, baseURL!, tag);
    // A year ahead of today's that no other spec uses (fiscal years may not overlap).
    const ahead = fiscalYear(5);
    const year = `FY ${ahead.name} ${tag}`;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' }).click();
    await expect(page.getByRole('heading', { name: 'Budgets' })).toBeVisible();

    // New fiscal year (setting:edit), with the server's overlap check on the fields.
    await page.getByRole('button', { name: 'New fiscal year' }).click();
    const form = page.getByRole('dialog', { name: 'New fiscal year' });
    await form.getByLabel('Name').fill(year);
    await form.getByLabel('First day').fill(ahead.startDate);
    await form.getByLabel('Last day').fill(ahead.endDate);
    await form.getByLabel('Name').press('Enter');
    await expect(form).toHaveCount(0);
    // The dialog is gone from the page: the focus is back on the button that opened it.
    await expect(page.getByRole('button', { name: 'New fiscal year' })).toBeFocused();
    await page.getByRole('button', { name: 'New fiscal year' }).click();
    await form.getByLabel('Name').fill(`Overlapping ${tag}`);
    // The calendar year of its last day: its second half and the next year's first.
    const across = ahead.endDate.slice(0, 4);
    await form.getByLabel('First day').fill(`${across}-01-01`);
    await form.getByLabel('Last day').fill(`${across}-12-31`);
    await form.getByRole('button', { name: 'Create fiscal year' }).click();
    await expect(form.getByLabel('First day')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText(/overlaps fiscal year/).first()).toBeVisible();
    // A name already taken is a conflict no reload mends: said in the server's words.
    const free = fiscalYear(64);
    await form.getByLabel('Name').fill(year);
    await form.getByLabel('First day').fill(free.startDate);
    await form.getByLabel('Last day').fill(free.endDate);
    await form.getByRole('button', { name: 'Create fiscal year' }).click();
    await expect(form.getByRole('alert')).toContainText(`A fiscal year named ${year} already exists.`);
    await expect(form.getByRole('alert')).not.toContainText('Changed by someone else');
    await form.getByRole('button', { name: 'Cancel Changes' }).click();
    await page.getByRole('dialog', { name: 'Cancel Changes' }).getByRole('button', { name: 'Cancel Changes' }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New fiscal year' })).toBeFocused();

    // Search by name, then open the year.
    await page.getByLabel('Search').fill(tag);
    const rows = page.getByTestId('budgets-table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await page.getByRole('link', { name: year }).click();
    await expect(page).toHaveURL(/\/budget\/\d+\/details$/);
    await expect(page.getByRole('heading', { name: `Budget ${year}` })).toBeVisible();
    await expect(page.getByText('No budget lines yet.').first()).toBeVisible();

    // Two lines, then save.
    await page.getByRole('button', { name: 'Add line' }).click();
    await expect(page.getByRole('textbox', { name: 'New line 1 mentor program' })).toBeFocused();
    await pick(page, 'New line 1 mentor program', ref.programA);
    await pick(page, 'New line 1 fund', ref.fund);
    await pick(page, 'New line 1 expense account', ref.account);
    await page.getByLabel('New line 1 budgeted').fill('1000');
    await page.getByRole('button', { name: 'Add line' }).click();
    await pick(page, 'New line 2 mentor program', ref.programB);
    await pick(page, 'New line 2 fund', ref.fund);
    await pick(page, 'New line 2 expense account', ref.account);
    await page.getByLabel('New line 2 budgeted').fill('250.5');
    // A line removed hands the focus to the line above, not to the page.
    await page.getByRole('button', { name: 'Add line' }).click();
    await expect(page.getByRole('textbox', { name: 'New line 3 mentor program' })).toBeFocused();
    await page.getByTestId('budget-line').nth(2).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('budget-line')).toHaveCount(2);
    await expect(page.getByRole('textbox', { name: 'New line 2 mentor program' })).toBeFocused();
    await expect(page.getByTestId('total-budgeted')).toHaveText('$1,250.50');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await confirmSave(page);
    await expect(page.getByText('2 budget lines saved.')).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('budget-line')).toHaveCount(2);
    await expect(page.getByTestId('total-budgeted')).toHaveText('$1,250.50');
    await expect(page.getByTestId('total-remaining')).toHaveText('$1,250.50');
    const chart = page.getByTestId('budget-chart');
    await expect(chart.locator(`[data-program="${ref.programA}"]`)).toContainText('$1,000.00');
    await expect(chart.locator(`[data-program="${ref.programB}"]`)).toContainText('$250.50');

    // Edit a saved line; Cancel Changes restores it, a save keeps it.
    const lineA = page.getByLabel(new RegExp(`^${ref.programA}.* budgeted$`));
    await lineA.fill('900');
    await expect(page.getByTestId('total-budgeted')).toHaveText('$1,150.50');
    await page.getByRole('button', { name: 'Cancel Changes' }).click();
    await page.getByRole('dialog', { name: 'Cancel Changes' }).getByRole('button', { name: 'Cancel Changes' }).click();
    await expect(lineA).toHaveValue('1000.00');
    await lineA.fill('1200');
    await lineA.press('Enter');
    await confirmSave(page);
    await expect(page.getByText('1 budget line saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('total-budgeted')).toHaveText('$1,450.50');

    // The list shows the year's totals.
    await page.getByRole('link', { name: 'All fiscal years' }).click();
    await expect(page.getByTestId('budgets-table').locator(`[data-fiscal-year="${year}"]`)).toContainText('$1,450.50');

    // A Coordinator of program A (budget:read only) sees that program's line, read-only.
    const coordinator = await createProgramCoordinator(request, baseURL!, ref.programAId, year, ahead.startDate, tag);
    const context = await browser.newContext({ baseURL });
    await syncClock(context);
    const other = await context.newPage();
    await signIn(other, coordinator.email, coordinator.password);
    await other.goto(page.url());
    await other.getByRole('link', { name: year }).click();
    await expect(other.getByTestId('total-budgeted')).toHaveText('$1,200.00');
    await expect(other.getByTestId('budget-chart').locator(`[data-program="${ref.programB}"]`)).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Add line' })).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'New fiscal year' })).toHaveCount(0);
    await expect(other.getByTestId('budget-grid').locator('input')).toHaveCount(0);
    await context.close();
  });
});
