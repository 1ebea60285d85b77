import { readFileSync } from 'node:fs';
import { addDays, currentFiscalYear, today } from './dates';
import { expect, signIn, test } from './fixtures';
import { exportFile, parseCsv } from './reportFiles';
import { findings, settled } from './axe';
import { tabTo } from './keyboard';
import { apiAs, unique, world } from './requests';

// The audit trail from a record's page: a participant changed in the browser, its History opened
// from its page, the change read field by field, the filter kept by the address bar across a
// reload, and the filtered trail exported.

test('a participant change is read in its History, filtered by the address bar, and exported', async ({ page, request, baseURL }) => {
  const api = await apiAs(request, baseURL!);
  const last = `Audit${unique()}`;
  const person = await api.post('/participants', {
    firstName: 'Iris',
    lastName: last,
    email: `iris.${last}@example.org`.toLowerCase(),
    phone: '916-555-0100',
    status: 'Active',
    roleCode: 'Mentor',
  });

  await signIn(page);
  await page.goto(`/participant/${person.id}/edit`);
  const edit = page.getByRole('form', { name: 'Participant' });
  await edit.getByLabel('Phone').fill('916-555-0177');
  await edit.getByLabel('Phone').press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Save Changes' });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/details$/);

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/audit-log\\?EntityType=participant&EntityId=${person.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(2);
  const change = rows.first();
  await expect(change.getByRole('cell').nth(2)).toHaveText('Updated');
  await expect(change.getByTestId('audit-changes')).toHaveText('Phone: 916-555-0100 → 916-555-0177');
  await expect(change.getByRole('link', { name: `Participant Iris ${last}` })).toHaveAttribute('href', `/participant/${person.id}/details`);
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('Created');

  await page.reload();
  await expect(page.getByLabel('Record id')).toHaveValue(String(person.id));
  await expect(page.getByRole('textbox', { name: 'Record', exact: true })).toHaveValue('Participant');
  await expect(rows).toHaveCount(2);

  const csv = parseCsv(readFileSync(await exportFile(page, 'CSV', 'audit-log'), 'utf8'));
  const [header, ...entries] = csv.filter((r) => r.length > 1);
  const changes = header.indexOf('Changes');
  expect(entries.map((r) => r[changes])[0]).toBe('Phone: 916-555-0100 → 916-555-0177');
  expect(entries).toHaveLength(2);

  // A last day before the first is refused on the field that is wrong.
  await page.getByLabel('From').fill(today());
  await page.getByLabel('To').fill(addDays(today(), -1));
  await expect(page.getByLabel('To')).toHaveAccessibleDescription('must not be before From');
});

test("a participation's change links to its participant's page, followed by keyboard", async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const payee = await w.api.get(`/participants/${w.payeeId}`);
  const p = payee.participations[0];
  const { mentorProgramId, fiscalYearId, roleCode, startDate } = p;
  // An end date a month before the year's last day: after the start, inside the year.
  const endDate = addDays(currentFiscalYear().endDate, -30);
  await w.api.put(`/participants/${w.payeeId}/participations/${p.id}`, { mentorProgramId, fiscalYearId, roleCode, startDate, endDate });

  await signIn(page);
  await page.goto(`/settings/audit-log?EntityType=participation&EntityId=${p.id}`);
  const change = page.getByTestId('audit-row').first();
  await expect(change.getByRole('cell').nth(2)).toHaveText('Updated');
  // The entry holds the end date alone; the list names the participant for the link, and
  // the record and the day in words, never as an id or an ISO date.
  const link = change.getByRole('link', { name: new RegExp(`^Participation ${payee.firstName} ${payee.lastName}, `) });
  await expect(change.getByTestId('audit-changes')).toHaveText(/^End date: .* → [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(link).toHaveAttribute('href', `/participant/${w.payeeId}/details`);
  await settled(page);
  expect(await findings(page, 'audit trail, a participation')).toEqual([]);
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/participant/${w.payeeId}/details$`));
});
