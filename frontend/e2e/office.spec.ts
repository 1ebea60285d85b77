import type { Page, APIRequestContext, TestInfo } from '@playwright/test';
import { addDays, currentFiscalYear, fiscalYear, today } from './dates';
import { adminToken, expect, mailedLink, signIn, syncClock, test as base } from './fixtures';
import { startServer, type RunningServer } from './server';
import { findings } from './axe';

// A finance office's day from the screens alone, at 1280x800 on the demo world:
// reference lists and a new year, budgets, the batch release, returned and approved requests
// read as documents, one money and date format, the work list above the fold, the demo's
// Coordinator, and a keyboard-only pass. Each main screen is kept as a screenshot artefact.

const test = base.extend<object, { server: RunningServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ MENTORPAY_DEMO: 'true' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

const MONEY = /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/;
const DEMO_COORDINATOR = 'dana.whitfield@demo.example.org';
// The demo world's two fiscal years are the one holding the day it is made and the one before.
const DEMO_YEAR = `FY ${currentFiscalYear().name}`;
const DEMO_LAST_YEAR = `FY ${fiscalYear(-1).name}`;
// A year the demo does not have, ahead of today's.
const NEW_YEAR = fiscalYear(4);
const NEW_YEAR_NAME = `FY ${NEW_YEAR.name}`;
const GRANT = `One-time grant ${NEW_YEAR.name}`;

async function shot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: false });
}

async function api(request: APIRequestContext, baseURL: string) {
  const token = await adminToken(request, baseURL);
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async get(path: string) {
      const r = await request.get(`${baseURL}/api/v1${path}`, { headers });
      expect(r.status(), await r.text()).toBe(200);
      return r.json();
    },
    async post(path: string, data: unknown) {
      const r = await request.post(`${baseURL}/api/v1${path}`, { headers, data });
      expect(r.status(), await r.text()).toBeLessThan(300);
      return r.json();
    },
  };
}

test('reference lists: a new fund, its rename and deactivation, an approval code, a new year budgeted from the screens', async ({ page }, info) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Reference lists' }).click();
  await expect(page).toHaveURL(/\/settings\/reference\/funds$/);
  await expect(page.getByRole('tab', { name: 'Funds' })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: 'New fund' }).click();
  const create = page.getByRole('dialog', { name: 'New fund' });
  await create.getByRole('button', { name: 'Create fund' }).click();
  await expect(create.getByText('Enter a name')).toBeVisible();
  await create.getByLabel('Name').fill('One-time grant');
  await create.getByRole('textbox', { name: 'Code' }).fill('OTG 27');
  await create.getByRole('button', { name: 'Create fund' }).click();
  await expect(create.getByText('A code has no spaces')).toBeVisible();
  await create.getByRole('textbox', { name: 'Code' }).fill('OTG27');
  await create.getByRole('button', { name: 'Create fund' }).click();
  await expect(create).toBeHidden();
  const row = page.getByTestId('funds-table').locator('[data-entry="OTG27"]');
  await expect(row).toContainText('One-time grant');

  await row.getByRole('button', { name: 'Rename One-time grant' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit fund' });
  await edit.getByLabel('Name').fill(GRANT);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(row).toContainText(GRANT);

  // A new fiscal year, budgeted on the new fund.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' }).click();
  await page.getByRole('button', { name: 'New fiscal year' }).click();
  const year = page.getByRole('dialog', { name: 'New fiscal year' });
  await year.getByLabel('Name').fill(NEW_YEAR_NAME);
  await year.getByLabel('First day').fill(NEW_YEAR.startDate);
  await year.getByLabel('Last day').fill(NEW_YEAR.endDate);
  await year.getByRole('button', { name: 'Create fiscal year' }).click();
  await page.getByRole('link', { name: NEW_YEAR_NAME }).click();
  await page.getByRole('button', { name: 'Add line' }).click();
  const pick = async (label: string, option: RegExp) => {
    await page.getByRole('textbox', { name: label }).click();
    await page.getByRole('option', { name: option }).first().click();
  };
  await pick('New line 1 mentor program', /^CECMP/);
  await pick('New line 1 fund', /^OTG27/);
  await pick('New line 1 expense account', /^5210/);
  await page.getByLabel('New line 1 budgeted').fill('25,000');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByRole('dialog', { name: 'Save Changes' }).getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('1 budget line saved.')).toBeVisible();
  await expect(page.getByTestId('total-budgeted')).toHaveText('$25,000.00');

  // Deactivated, the fund leaves the pickers of new lines but stays on the saved one.
  await page.goto('/settings/reference/funds');
  await page.getByRole('button', { name: `Deactivate ${GRANT}` }).click();
  const ask = page.getByRole('dialog', { name: 'Deactivate fund' });
  await expect(ask.getByRole('button', { name: 'Deactivate' })).toBeFocused();
  await ask.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByTestId('funds-table').locator('[data-entry="OTG27"]')).toContainText('Inactive');
  await shot(page, info, 'reference-lists');
  await page.goto('/budget/list');
  await page.getByRole('link', { name: NEW_YEAR_NAME }).click();
  await expect(page.getByTestId('budget-line')).toContainText('OTG27');
  await page.getByRole('button', { name: 'Add line' }).click();
  await page.getByRole('textbox', { name: 'New line 2 fund' }).click();
  await expect(page.getByRole('option', { name: /^OTG27/ })).toHaveCount(0);
  await expect(page.getByRole('option', { name: /^GF/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // Approval codes per form type.
  await page.goto('/settings/reference/approval-codes');
  await page.getByRole('button', { name: 'New approval code' }).click();
  const code = page.getByRole('dialog', { name: 'New approval code' });
  await code.getByLabel('Name').fill('Travel, out of state');
  await code.getByRole('textbox', { name: 'Code' }).fill('TM-OOS');
  await code.getByRole('textbox', { name: 'Form type' }).click();
  await page.getByRole('option', { name: /^F3 – / }).click();
  await code.getByRole('button', { name: 'Create approval code' }).click();
  await expect(page.getByTestId('approval-codes-table').locator('[data-entry="TM-OOS"]')).toContainText('F3 – Travel and mileage');
});

test('budget details at 1280 px: every column in view, refused amounts, a warning below what is approved', async ({ page }, info) => {
  await signIn(page);
  await page.goto('/budget/list');
  await page.getByRole('link', { name: DEMO_LAST_YEAR }).click();
  await expect(page.getByRole('heading', { name: `Budget ${DEMO_LAST_YEAR}` })).toBeVisible();
  const first = page.getByTestId('budget-line').first();
  const input = first.getByRole('textbox');

  // Every column fits: nothing scrolls sideways, the Remaining amounts are whole.
  const remainingHeader = page.getByRole('columnheader', { name: 'Remaining' });
  const box = (await remainingHeader.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  const cut = await page.getByTestId('budget-grid').evaluate((t) =>
    [...t.querySelectorAll('td')].filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent),
  );
  expect(cut).toEqual([]);
  await expect(first.locator('td').nth(5)).toHaveText(MONEY);

  // Refused, never coerced: the field says why and nothing is asked or sent.
  await input.fill('-5');
  await expect(first.getByText('Must not be negative')).toBeVisible();
  await input.fill('0.725');
  await expect(first.getByText('At most two decimals (whole cents)')).toBeVisible();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(input).toBeFocused();

  // Below what is approved: asked first, naming by how much.
  const approved = (await first.locator('td').nth(4).innerText()).trim();
  await input.fill('1');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const warn = page.getByRole('dialog', { name: 'Budget below what is approved' });
  await expect(warn).toContainText(`$1.00 is`);
  await expect(warn).toContainText(`below the ${approved} already approved`);
  await shot(page, info, 'budget-below-approved');
  await warn.getByRole('button', { name: 'Keep editing' }).click();

  // The lines use the window's height (no box of a few rows); scrolled through them, the
  // header stays under the top bar and the save bar above the footer.
  await page.mouse.move(640, 500);
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  const innerScroll = await page.getByTestId('budget-scroll').evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  expect(innerScroll, 'the lines scroll in a box of their own').toBe(false);
  const bar = (await page.getByTestId('budget-save-bar').boundingBox())!;
  expect(bar.y + bar.height).toBeLessThanOrEqual(800 - 40);
  const header = (await remainingHeader.boundingBox())!;
  expect(header.y).toBeGreaterThanOrEqual(68);
  expect(header.y).toBeLessThan(800);
  await shot(page, info, 'budget-details');
  // Filtered by program, the year's other lines are kept (not shown).
  await page.getByRole('textbox', { name: 'Mentor program', exact: true }).click();
  await page.getByRole('option', { name: /^DMP/ }).click();
  await expect(page.getByTestId('budget-line').first()).toContainText('DMP');
  await page.getByRole('button', { name: 'Cancel Changes' }).click();
  await page.getByRole('dialog', { name: 'Cancel Changes' }).getByRole('button', { name: 'Cancel Changes' }).click();
});

test('a returned request says why at the top; requests read as documents; an approved one names its approval', async ({ page, request, baseURL }, info) => {
  const admin = await api(request, baseURL!);
  const returned = (await admin.get('/payment-requests?FormStatus=RevisionRequested&Size=1')).items[0];
  await signIn(page);
  await page.goto(`/payment-request/${returned.formType}/${returned.id}/details`);
  const alert = page.getByTestId('revision-alert');
  await expect(alert).toContainText('Returned for revision');
  await expect(alert).toContainText(/please|Please/);
  expect((await alert.boundingBox())!.y).toBeLessThan(200);
  const doc = page.getByTestId('request-document');
  await expect(doc).toBeVisible();
  await expect(doc.getByRole('textbox')).toHaveCount(0);
  await expect(doc.getByRole('combobox')).toHaveCount(0);
  await shot(page, info, 'request-returned');

  const approved = (await admin.get('/payment-requests?FormStatus=Approved&Size=1')).items[0];
  await page.goto(`/payment-request/${approved.formType}/${approved.id}/details`);
  const facts = page.getByTestId('approval-facts');
  for (const label of ['Approved amount', 'Approval code', 'Fund', 'Expense account', 'Approved by', 'Approved on']) {
    await expect(facts.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(facts).toContainText('System Administrator');
  await expect(facts).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  // The activity log in words, dated one way.
  const log = page.getByRole('table', { name: 'Activity log' });
  await expect(log).toContainText('Approved');
  await expect(log).toContainText('Submitted');
  await expect(log).not.toContainText('moved-to');
  await expect(log).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
  await shot(page, info, 'request-approved');
});

test('home at 1280x800: ten rows above the footer, one money format right-aligned, one date format', async ({ page }, info) => {
  await signIn(page);
  const table = page.getByRole('table', { name: 'Payment requests' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // Polled: the first row can be the loading placeholder; the demo's rows follow it. The footer
  // (40 px) covers the bottom of the window.
  const rowsAboveFold = () => table.locator('tbody tr').evaluateAll((rows) => rows.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight - 40).length);
  await expect.poll(rowsAboveFold).toBeGreaterThanOrEqual(10);
  // Every amount (approved over requested in one cell) in one format, right-aligned.
  const cells = await table.evaluate((t) =>
    [...t.querySelectorAll('tbody td')]
      .filter((td) => td.textContent?.includes('$'))
      .map((td) => ({ amounts: [...td.querySelectorAll('span')].map((s) => s.textContent!.replace(/^of /, '').trim()), align: getComputedStyle(td).textAlign })),
  );
  expect(cells.length).toBeGreaterThan(8);
  for (const c of cells) {
    for (const a of c.amounts.filter((x) => x !== '—')) expect(a).toMatch(MONEY);
    expect(c.align).toBe('right');
  }
  // The Submitted and Placement end columns, found by their headers.
  const dates = await table.evaluate((t) => {
    const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent?.replace(/[↕▲▼]/g, '').trim());
    const at = ['Submitted', 'Placement end'].map((h) => heads.indexOf(h) + 1);
    return at.flatMap((n) => [...t.querySelectorAll(`tbody td:nth-child(${n})`)].map((td) => td.textContent ?? '')).filter((x) => x !== '');
  });
  expect(dates.length).toBeGreaterThan(8);
  for (const d of dates) expect(d).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await shot(page, info, 'home');
});

test('batch: every matching approved request across pages, confirmed with count and total, then a toast', async ({ page, request, baseURL }, info) => {
  const admin = await api(request, baseURL!);
  const matching = await admin.get('/payment-requests?FormStatus=Approved&FormType=F5&Size=500');
  const total = matching.items.reduce((t: number, r: { approvedAmount: number }) => t + Math.round(r.approvedAmount * 100), 0);
  const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(total / 100);
  await signIn(page);
  await page.goto('/?FormStatus=Approved&FormType=F5&Size=10');
  await page.getByRole('button', { name: `Select all ${matching.totalCount} that can be moved` }).click();
  await expect(page.getByTestId('bulk-summary')).toHaveText(`${matching.totalCount} selected, totalling ${dollars}.`);
  await page.getByRole('button', { name: `Move to ready for processing (${matching.totalCount})` }).click();
  const ask = page.getByRole('dialog', { name: 'Move to ready for processing' });
  await expect(ask).toContainText(`Move ${matching.totalCount} requests totalling ${dollars} to ready for processing?`);
  await expect(ask.getByRole('button', { name: 'Move them' })).toBeFocused();
  await shot(page, info, 'batch-confirm');
  await ask.getByRole('button', { name: 'Move them' }).click();
  const toast = page.getByText(`${matching.totalCount} requests totalling ${dollars} moved to ready for processing.`);
  await expect(toast).toBeVisible();
  await expect(ask).toBeHidden();
  // The toast lies in the menu column, above the footer: over nothing one can focus or click.
  const menu = (await page.getByRole('navigation', { name: 'Main menu' }).boundingBox())!;
  const footer = (await page.getByRole('contentinfo').boundingBox())!;
  const box = (await toast.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(menu.x + menu.width);
  expect(box.y + box.height).toBeLessThanOrEqual(footer.y);
  await shot(page, info, 'batch-toast');
  // And it reads as every text does (contrast), its close button named.
  expect(await findings(page, 'toast')).toEqual([]);
  expect((await admin.get('/payment-requests?FormStatus=Approved&FormType=F5&Size=1')).totalCount).toBe(0);
});

test('the demo Coordinator signs in from its printed link, sees only its programs; an unlinked login is told why its lists are empty', async ({
  page,
  browser,
  request,
  baseURL,
  server,
}, info) => {
  const link = await mailedLink(server, DEMO_COORDINATOR);
  await page.goto(link);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Demo-coordinator-1');
  await page.getByRole('textbox', { name: 'Confirm password', exact: true }).fill('Demo-coordinator-1');
  await page.getByRole('button', { name: /Set password/ }).click();
  await signIn(page, DEMO_COORDINATOR, 'Demo-coordinator-1');
  await page.getByRole('textbox', { name: 'Mentor program' }).click();
  const options = page.getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(options.filter({ hasText: 'Director Mentor Program' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await shot(page, info, 'coordinator-home');

  // Its submitted request waits for the Administrator, who may approve it.
  const admin = await api(request, baseURL!);
  const waiting = (await admin.get('/payment-requests?FormStatus=Submitted&MentorProgramId=1&Size=1')).items[0];
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await syncClock(other);
  await signIn(other);
  await other.goto(`/payment-request/${waiting.formType}/${waiting.id}/details`);
  await expect(other.getByRole('link', { name: 'Approve…' })).toBeVisible();
  await other.close();

  // A login without a participant link is told why nothing shows.
  await admin.post('/identity/users', { email: 'auditor@example.org', firstName: 'Ann', lastName: 'Unlinked', roles: ['Coordinator'], password: 'Unlinked-login-12' });
  const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await syncClock(fresh);
  await signIn(fresh, 'auditor@example.org', 'Unlinked-login-12');
  await expect(fresh.getByTestId('empty-scope')).toContainText('not linked to a participant');
  await fresh.close();
});

test('keyboard only: sign in, a visible focus ring, dialogs focus their primary action', async ({ page }) => {
  await page.goto('/login');
  // The sign-in form puts the focus in E-mail itself (autoFocus): a keyboard user types at
  // once. (A Tab here passed only when pressed before the form had rendered.)
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type('admin@example.org');
  await page.keyboard.press('Tab');
  await page.keyboard.type('e2e-Admin-password-1');
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/settings/reference/expense-accounts');
  await expect(page.getByRole('button', { name: 'New expense account' })).toBeVisible();
  // Tab to the first row action: the ring is a real outline, not a thin border.
  const target = page.getByRole('button', { name: 'New expense account' });
  await target.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
  const ring = await target.evaluate((el) => ({ width: parseFloat(getComputedStyle(el).outlineWidth), style: getComputedStyle(el).outlineStyle }));
  expect(ring.style).toBe('solid');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New expense account' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Printing');
  await page.keyboard.press('Escape');
  // Leaving with something typed asks; the question's own button has the focus.
  const cancel = page.getByRole('dialog', { name: 'Cancel Changes' });
  await expect(cancel.getByRole('button', { name: 'Cancel Changes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
});

/** A new program with an active and an inactive payee in the demo's year of today. */
async function programWithPayees(admin: Awaited<ReturnType<typeof api>>) {
  const years: { id: number; name: string; startDate: string }[] = await admin.get('/system-settings/fiscal-years');
  const year = years.find((y) => y.name === DEMO_YEAR)!;
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const program = await admin.post('/mentor-programs', { name: `Payees ${tag}`, code: `P${tag}`.slice(0, 20) });
  const payee = async (first: string, status: string) => {
    const p = await admin.post('/participants', {
      firstName: first,
      lastName: tag,
      email: `${first}.${tag}@example.org`.toLowerCase(),
      status,
      roleCode: 'Mentor',
      participations: [{ mentorProgramId: program.id, fiscalYearId: year.id, roleCode: 'Mentor', startDate: year.startDate }],
    });
    return { name: `${first} ${tag}`, email: p.email as string, participationId: p.participations[0].id as number };
  };
  return { program, active: await payee('Ada', 'Active'), inactive: await payee('Ina', 'Inactive') };
}

test('inactive participants are marked in every payee picker', async ({ page, request, baseURL }, info) => {
  const admin = await api(request, baseURL!);
  const { program, active, inactive } = await programWithPayees(admin);
  await signIn(page);

  // The request form's picker: name, role in words, e-mail; the inactive one says so.
  await page.goto('/payment-request/F5/create');
  await page.getByRole('textbox', { name: 'Mentor program' }).click();
  await page.getByRole('option', { name: program.name }).click();
  await page.getByRole('textbox', { name: 'Payee' }).click();
  await expect(page.getByRole('option', { name: `${inactive.name} (mentor, ${inactive.email}) · inactive`, exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: `${active.name} (mentor, ${active.email})`, exact: true })).toBeVisible();
  await shot(page, info, 'payee-picker');
  await page.keyboard.press('Escape');

  // The list filters' picker.
  await page.goto(`/payment-requests/details?MentorProgramId=${program.id}`);
  await page.getByRole('textbox', { name: 'Payee' }).click();
  await expect(page.getByRole('option', { name: `${inactive.name} (mentor) · inactive`, exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: `${active.name} (mentor)`, exact: true })).toBeVisible();
});

test('submitting after the submission window warns first; confirming submits, declining keeps the draft', async ({ page, request, baseURL }, info) => {
  const admin = await api(request, baseURL!);
  const { active } = await programWithPayees(admin);
  const [purpose] = await admin.get('/payment-requests/travel-purposes');
  const [transit] = await admin.get('/payment-requests/transit-types');
  // An F3 trip of a year ago (F3's window is 60 days), and one of today.
  const trip = (date: string) =>
    admin.post('/payment-requests/F3', {
      participationId: active.participationId,
      description: `Site visit ${date}`,
      details: { travelPurposeId: purpose.id, transitTypeId: transit.id, trips: [{ date, from: 'Fresno', to: 'Clovis', miles: 10 }] },
    });
  const late = await trip(addDays(today(), -365));
  const onTime = await trip(today());
  await signIn(page);

  await page.goto(`/payment-request/F3/${late.id}/details`);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Submit after the submission window?' });
  await expect(ask).toContainText('after the 60-day submission window');
  await expect(ask).toContainText('The approver will see this warning.');
  await expect(ask.getByRole('button', { name: 'Submit anyway' })).toBeFocused();
  await shot(page, info, 'late-submission-warning');
  await ask.getByRole('button', { name: 'Do not submit' }).click();
  await expect(ask).toBeHidden();
  expect((await admin.get(`/payment-requests/F3/${late.id}`)).formStatus).toBe('Draft');

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await ask.getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByText('The request was submitted.')).toBeVisible();
  expect((await admin.get(`/payment-requests/F3/${late.id}`)).formStatus).toBe('Submitted');

  // Inside the window: no question, straight in.
  await page.goto(`/payment-request/F3/${onTime.id}/details`);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('The request was submitted.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect((await admin.get(`/payment-requests/F3/${onTime.id}`)).formStatus).toBe('Submitted');
});

test('server messages name enumeration values in words', async ({ page }, info) => {
  await signIn(page);
  // A filter value the server does not know (an old bookmark): the message lists the roles in words.
  await page.goto('/participant/list?RoleCode=Boss');
  const alert = page.getByRole('alert').filter({ hasText: 'RoleCode' });
  await expect(alert).toContainText('must be one of Mentor, Director mentor, Coordinator, Administrator');
  await expect(alert).not.toContainText('DirectorMentor');
  await shot(page, info, 'message-in-words');
});

test('template validation names every form type, F1 to F14', async ({ page, request, baseURL }, info) => {
  const admin = await api(request, baseURL!);
  const types: { code: string; name: string }[] = await admin.get('/payment-requests/types');
  await signIn(page);
  await page.goto('/settings/template-validation');
  const grid = page.getByTestId('limits-grid');
  const heads = grid.locator('tbody th[scope="row"]');
  await expect(heads).toHaveCount(14);
  await expect(heads.first()).toHaveText('F1 Placement stipend');
  expect(await heads.allInnerTexts()).toEqual(types.map((t) => `${t.code} ${t.name}`));
  await expect(grid.getByRole('rowheader', { name: 'F3 Travel and mileage' })).toBeVisible();
  await shot(page, info, 'template-validation');
});
