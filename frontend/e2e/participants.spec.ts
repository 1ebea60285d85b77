import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { findings } from './axe';
import { adminToken, expect, signIn, test } from './fixtures';
import { tabTo } from './keyboard';
import { addDays } from './dates';
import { yearOfToday } from './requests';

// Participant screens against the real server: data is set up through the API,
// the behaviour under test goes through the browser.

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A small authorised client of /api/v1 for setting up data. */
async function apiAs(request: APIRequestContext, baseURL: string, token?: string) {
  const auth = { Authorization: `Bearer ${token ?? (await adminToken(request, baseURL))}` };
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown, expected = [200, 201]) => {
    const response = await request.fetch(`${baseURL}/api/v1${path}`, { method, headers: auth, data });
    expect(expected, `${method} ${path}: ${await response.text()}`).toContain(response.status());
    return response.status() === 204 ? undefined : response.json();
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, data: unknown) => call('POST', path, data),
    put: (path: string, data: unknown) => call('PUT', path, data),
  };
}
type Api = Awaited<ReturnType<typeof apiAs>>;

function participantBody(firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
  return {
    firstName,
    lastName,
    email: `${firstName}.${lastName}.${unique()}@example.org`.toLowerCase(),
    status: 'Active',
    roleCode: 'Mentor',
    ...extra,
  };
}

async function createProgram(api: Api, name: string): Promise<{ id: number; name: string }> {
  return api.post('/mentor-programs', { name, code: `P${unique()}`.slice(0, 20) });
}

/** Mantine Select / MultiSelect: open by its label, click the option. */
async function pick(page: Page, scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function confirmDialog(page: Page, button: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

const table = (page: Page) => page.getByRole('table', { name: 'Participants' });
const range = (page: Page) => page.getByTestId('table-range');

test.describe('participants', () => {
  test('create a participant, then edit it', async ({ page }) => {
    const last = `Create${unique()}`;
    await signIn(page);
    await page.goto('/participant/list');
    await page.getByRole('link', { name: 'Create participant' }).click();
    await expect(page).toHaveURL(/\/participant\/create$/);

    const form = page.getByRole('form', { name: 'Participant' });
    // What is missing is said at once, before any question, at the fields and summed up at the
    // top of the form: the summary takes the focus and its links lead to the fields.
    await form.getByRole('button', { name: 'Save Changes' }).click();
    const summary = form.getByRole('alert', { name: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
    await expect(summary.getByRole('link')).toHaveText(['Enter the first name', 'Enter the last name', 'Enter the e-mail address', 'Choose the status', 'Choose the role']);
    await summary.getByRole('link', { name: 'Enter the first name' }).click();
    await expect(form.getByLabel('First name')).toBeFocused();

    await form.getByLabel('First name').fill('Rosa');
    await form.getByLabel('Last name').fill(last);
    await form.getByLabel('E-mail').fill(`rosa.${last}@example.org`.toLowerCase());
    await form.getByLabel('Phone').fill('916-555-0101');
    await pick(page, form, 'Status', 'Active');
    await pick(page, form, 'Role', 'Mentor');
    await pick(page, form, 'District type', 'Assembly');
    await form.getByLabel('District', { exact: true }).fill('7');
    await pick(page, form, 'Languages', 'Spanish');
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('dialog').getByText('Are you sure you want to save the changes?')).toBeVisible();
    await confirmDialog(page, 'Save Changes');

    await expect(page).toHaveURL(/\/participant\/\d+\/details$/);
    await expect(page.getByText('Participant created')).toBeVisible();
    const details = page.getByRole('form', { name: 'Participant' });
    await expect(details.getByLabel('Last name')).toHaveValue(last);
    await expect(details.getByLabel('District', { exact: true })).toHaveValue('7');
    await expect(details.getByText('Spanish')).toBeVisible();

    // Edit: change the phone and the status.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/edit$/);
    const edit = page.getByRole('form', { name: 'Participant' });
    await edit.getByLabel('Phone').fill('916-555-0199');
    await pick(page, edit, 'Status', 'Inactive');
    await edit.getByLabel('Phone').press('Enter'); // Enter submits
    await confirmDialog(page, 'Save Changes');
    await expect(page).toHaveURL(/\/details$/);
    await expect(page.getByText('Changes saved')).toBeVisible();
    await expect(details.getByLabel('Phone')).toHaveValue('916-555-0199');
    await expect(details.getByRole('textbox', { name: 'Status', exact: true })).toHaveValue('Inactive');

    // The list finds it.
    await page.goto(`/participant/list?FullName=${last}`);
    await expect(table(page).getByRole('link', { name: `Rosa ${last}` })).toBeVisible();
    await expect(range(page)).toHaveText('1–1 of 1');
  });

  test('cancelling an edit asks first and discards the changes', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const created = await api.post('/participants', participantBody('Cato', `Cancel${unique()}`));
    await signIn(page);
    await page.goto(`/participant/${created.id}/edit`);
    const form = page.getByRole('form', { name: 'Participant' });
    await expect(form.getByLabel('First name')).toHaveValue('Cato');
    await form.getByLabel('First name').fill('Changed');

    await form.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Are you sure you want to cancel the changes?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await expect(dialog).toBeHidden();
    await expect(form.getByLabel('First name')).toHaveValue('Changed');

    await form.getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog(page, 'Cancel Changes');
    await expect(page).toHaveURL(new RegExp(`/participant/${created.id}/details$`));
    await expect(page.getByRole('form', { name: 'Participant' }).getByLabel('First name')).toHaveValue('Cato');
    expect((await api.get(`/participants/${created.id}`)).firstName).toBe('Cato');

    // Leaving by the menu with unsaved changes asks the same question.
    await page.getByRole('link', { name: 'Edit' }).click();
    await form.getByLabel('First name').fill('Again');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('dialog').getByText('Are you sure you want to cancel the changes?')).toBeVisible();
    await confirmDialog(page, 'Keep editing');
    await expect(page).toHaveURL(/\/edit$/);
  });

  test('a stale edit says someone else changed it, and reloads', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const created = await api.post('/participants', participantBody('Vera', `Version${unique()}`));
    await signIn(page);
    await page.goto(`/participant/${created.id}/edit`);
    const form = page.getByRole('form', { name: 'Participant' });
    await expect(form.getByLabel('First name')).toHaveValue('Vera');

    const { id: _id, fullName: _f, participations: _p, identityUserId: _u, createdAt: _c, updatedAt: _up, ...body } = created;
    await api.put(`/participants/${created.id}`, { ...body, phone: '916-555-0111' });

    await form.getByLabel('Phone').fill('916-555-0222');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await confirmDialog(page, 'Save Changes');
    const alert = page.getByRole('alert').filter({ hasText: 'Changed by someone else' });
    await expect(alert).toContainText('The participant was changed by someone else');
    await expect(alert).toContainText('Your changes were not saved.');
    expect(await findings(page, 'stale participant edit')).toEqual([]);
    // By keyboard: back from the Save button to the alert's reload.
    await tabTo(page, alert.getByRole('button', { name: 'Reload current values' }), { back: true });
    await page.keyboard.press('Enter');
    await expect(form.getByLabel('Phone')).toHaveValue('916-555-0111');
  });

  test('filter the list and page through it, sorted on the server', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const tag = `Page${unique()}`;
    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, '0');
      await api.post('/participants', participantBody(`P${n}`, tag, { status: i % 3 === 0 ? 'Pending' : 'Active' }));
    }
    await signIn(page);
    await page.goto('/participant/list');
    const filters = page.getByRole('group', { name: /Filters/ });
    await filters.getByLabel('Full name').fill(tag);
    await expect(range(page)).toHaveText('1–25 of 30');
    await expect(page).toHaveURL(new RegExp(`FullName=${tag}`));

    // Sorted by name, ascending then descending.
    await table(page).getByRole('button', { name: 'Full name' }).click();
    await expect(table(page).getByRole('row').nth(1)).toContainText(`P01 ${tag}`);
    await table(page).getByRole('button', { name: 'Full name' }).click();
    await expect(table(page).getByRole('row').nth(1)).toContainText(`P30 ${tag}`);

    // Page 2 holds the last five.
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(range(page)).toHaveText('26–30 of 30');
    await expect(table(page).getByRole('row')).toHaveCount(6);
    await expect(table(page).getByRole('row').nth(1)).toContainText(`P05 ${tag}`);

    // Another filter goes back to page 1.
    await pick(page, filters, 'Status', 'Pending');
    await expect(range(page)).toHaveText('1–10 of 10');
    await expect(filters).toHaveAccessibleName('Filters (2 active)');

    // Smaller pages.
    await pick(page, page, 'Rows per page', '10');
    await expect(range(page)).toHaveText('1–10 of 10');

    // Nothing matches: the empty state.
    await filters.getByLabel('Full name').fill(`${tag}-nobody`);
    await expect(page.getByText('No participants match these filters.')).toBeVisible();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByText('No participants match these filters.')).toBeHidden();

    // A row leads to its details.
    await filters.getByLabel('Full name').fill(tag);
    await table(page).getByRole('link', { name: `P30 ${tag}` }).click();
    await expect(page).toHaveURL(/\/participant\/\d+\/details$/);
  });

  test('participations: add, edit and delete on the details page', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const program = await createProgram(api, `Program ${unique()}`);
    const created = await api.post('/participants', participantBody('Pia', `Part${unique()}`));
    const year = await yearOfToday(api);
    await signIn(page);
    await page.goto(`/participant/${created.id}/details`);
    const section = page.getByRole('region', { name: 'Participations' });
    await expect(section.getByText('No participations yet.')).toBeVisible();

    await section.getByRole('button', { name: 'Add participation' }).click();
    const modal = page.getByRole('dialog', { name: 'Add participation' });
    await pick(page, modal, 'Mentor program', program.name);
    await pick(page, modal, 'Fiscal year', year.name);
    await pick(page, modal, 'Role in program', 'Mentor');
    await modal.getByLabel('Start date').fill(year.startDate);
    await modal.getByRole('button', { name: 'Save participation' }).click();
    await expect(modal).toBeHidden();
    const row = section.getByRole('row').filter({ hasText: program.name });
    await expect(row).toContainText(year.startDate);

    await row.getByRole('button', { name: 'Edit' }).click();
    const editModal = page.getByRole('dialog', { name: 'Edit participation' });
    await pick(page, editModal, 'Role in program', 'Director mentor');
    await editModal.getByRole('button', { name: 'Save participation' }).click();
    await expect(editModal).toBeHidden();
    await expect(row).toContainText('Director mentor');

    await row.getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(page, 'Delete');
    await expect(section.getByText('No participations yet.')).toBeVisible();
  });

  test('delete asks first; a deleted participant is gone', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const last = `Delete${unique()}`;
    const created = await api.post('/participants', participantBody('Dora', last));
    await signIn(page);
    await page.goto(`/participant/${created.id}/details`);
    const card = page.getByRole('region', { name: `Participant details: Dora ${last}` });
    await card.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog').getByText(`Are you sure you want to delete Dora ${last}?`)).toBeVisible();
    await confirmDialog(page, 'Keep');
    await expect(page).toHaveURL(/\/details$/);

    await card.getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(page, 'Delete');
    await expect(page).toHaveURL(/\/participant\/list$/);
    await expect(page.getByText('Participant deleted')).toBeVisible();
    await page.goto(`/participant/list?FullName=${last}`);
    await expect(page.getByText('No participants match these filters.')).toBeVisible();
    await page.goto(`/participant/${created.id}/details`);
    await expect(page.getByText('This participant does not exist or has been deleted.')).toBeVisible();
  });

  test('a Coordinator with a login sees only its program\'s participants', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const mine = await createProgram(api, `Mine ${unique()}`);
    const theirs = await createProgram(api, `Theirs ${unique()}`);
    const tag = `Scope${unique()}`;
    const year = await yearOfToday(api);
    const participation = (programId: number, roleCode = 'Mentor') => ({
      mentorProgramId: programId,
      fiscalYearId: year.id,
      roleCode,
      startDate: year.startDate,
    });
    const coordinator = await api.post(
      '/participants',
      participantBody('Coco', tag, { roleCode: 'Coordinator', participations: [participation(mine.id, 'Coordinator')] }),
    );
    await api.post('/participants', participantBody('Inside', tag, { participations: [participation(mine.id)] }));
    await api.post('/participants', participantBody('Outside', tag, { participations: [participation(theirs.id)] }));

    // The Administrator creates the login from the details page.
    await signIn(page);
    await page.goto(`/participant/${coordinator.id}/details`);
    const login = page.getByRole('region', { name: 'Login' });
    await expect(login.getByText('No login')).toBeVisible();
    await login.getByRole('button', { name: 'Create login' }).click();
    const modal = page.getByRole('dialog', { name: 'Create login' });
    await modal.getByLabel('Password (optional)').fill('Coordinator-password-1');
    await modal.getByRole('button', { name: 'Create login' }).click();
    await expect(modal).toBeHidden();
    await expect(login.getByText('Login exists')).toBeVisible();
    await expect(login.getByRole('button', { name: 'Create login' })).toHaveCount(0);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await signIn(page, coordinator.email, 'Coordinator-password-1');
    await page.goto(`/participant/list?FullName=${tag}`);
    await expect(range(page)).toHaveText('1–2 of 2');
    await expect(table(page).getByRole('link', { name: `Inside ${tag}` })).toBeVisible();
    await expect(table(page).getByRole('link', { name: `Coco ${tag}` })).toBeVisible();
    await expect(table(page).getByRole('link', { name: `Outside ${tag}` })).toHaveCount(0);
    // No delete permission: no Delete button; no coordinator:create: no login section.
    await table(page).getByRole('link', { name: `Inside ${tag}` }).click();
    const card = page.getByRole('region', { name: `Participant details: Inside ${tag}` });
    await expect(card.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Login' })).toHaveCount(0);
  });

  test('participants are imported with the program names and codes the screens show and US dates', async ({ page, request, baseURL }) => {
    const api = await apiAs(request, baseURL!);
    const year = await yearOfToday(api);
    const tag = unique();
    const program = await createProgram(api, `Import ${tag}`);
    const code = (await api.get('/mentor-programs')).find((p: { id: number }) => p.id === program.id).code as string;
    expect((await api.get('/system-settings/general')).dateFormat, 'the office writes days month first').toBe('MM/DD/YYYY');
    // Days of this fiscal year as an office in the United States types them: 8/3/2026.
    const [first, second] = [addDays(year.startDate, 33), addDays(year.startDate, 45)];
    const typed = (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}/${day.slice(0, 4)}`;
    const csv = (program3: string) =>
      Buffer.from(
        [
          'First name,Last name,E-mail,Status,Role,Program,Fiscal year,Start date',
          `Ima,Import ${tag},ima.${tag}@example.org,Active,Mentor,  import ${tag.toUpperCase()} ,${year.name},${typed(first)}`,
          `Ora,Import ${tag},ora.${tag}@example.org,Active,Director mentor,${code.toLowerCase()},${year.name},${typed(second)}`,
          `Una,Import ${tag},una.${tag}@example.org,Active,Mentor,${program3},${year.name},${year.startDate}`,
          '',
        ].join('\r\n'),
      );
    const choose = async (bytes: Buffer) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /^Choose (a|another) file…$/ }).click();
      await (await chooser).setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: bytes });
    };

    await signIn(page);
    await page.goto('/participant/import');
    await expect(page.getByRole('heading', { name: 'Import participants' })).toBeVisible();
    await choose(csv('Nowhere Program'));
    const status = page.getByTestId('import-status');
    await expect(status).toHaveText('3 rows: 2 to create, 0 to update, 0 unchanged; 1 row with errors (1 problem).');
    // The problem by row, column in words and the value as typed.
    const problem = page.getByRole('table', { name: 'Rows with errors' }).getByRole('row').nth(1).getByRole('cell');
    await expect(problem).toHaveText(['4', 'Program', 'Nowhere Program', '"Nowhere Program" is not a known, active program name or code']);
    expect(await findings(page, 'import preview with a problem')).toEqual([]);

    await choose(csv(program.name));
    await expect(status).toHaveText('3 rows: 3 to create, 0 to update, 0 unchanged.');
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect(page.getByText('Import finished')).toBeVisible();
    expect(await findings(page, 'import finished')).toEqual([]);

    for (const [name, start] of [['ima', first], ['ora', second], ['una', year.startDate]]) {
      const found = await api.get(`/participants?Email=${name}.${tag}@example.org`);
      const taking = found.items[0].participations[0];
      expect([taking.mentorProgramId, taking.startDate], name).toEqual([program.id, start]);
    }
  });
});
