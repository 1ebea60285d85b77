import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { settled } from './axe';
import { expect } from './fixtures';
import { fiscalYear, recentDay, today } from './dates';
import { apiAs, PASSWORD, pick, world, yearOfToday } from './requests';

// Every route of the router in its loaded state with data, and every dialog, menu and panel
// opened on them, shared by the screen-wide specs (axe at 1280 and 390 px, reflow at 320 px):
// one list, so a new route or dialog is checked by both.

/**
 * Opens a path inside the running app (as its links do), not by reloading it: the screens are
 * the same, the run is shorter. Before sign-in a full load.
 */
export async function go(page: Page, path: string) {
  if (!page.url().startsWith('http')) return void (await page.goto(path));
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const arrived = await expect(page)
    .toHaveURL((url) => `${url.pathname}${url.search}` === path, { timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  // A page still settling its own address (a tab list choosing its tab) can overtake the push:
  // then the path is loaded as a new page.
  if (!arrived) await page.goto(path);
}

export type Seeded = Awaited<ReturnType<typeof makeSeed>>;

/** Requests in the states the screens need, made through the API. */
async function makeSeed(request: APIRequestContext, baseURL: string) {
  const w = await world(request, baseURL);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL, (await login.json()).accessToken);
  const [purpose] = await coordinator.get('/payment-requests/travel-purposes');
  const [transit] = await coordinator.get('/payment-requests/transit-types');
  const f3 = () =>
    coordinator.post('/payment-requests/F3', {
      participationId: w.participationId,
      description: 'Site visits',
      details: { travelPurposeId: purpose.id, transitTypeId: transit.id, trips: [{ date: recentDay(), from: 'Fresno', to: 'Clovis', miles: 10 }] },
    });
  const f5 = (topic: string, amount: number) =>
    coordinator.post('/payment-requests/F5', {
      participationId: w.participationId,
      description: topic,
      requestedAmount: amount,
      details: { seminarDate: recentDay(), topic, hours: 2 },
    });
  const submitted = await f3();
  const draft = await f3();
  const paid = await f5('Seminar paid', 30);
  const ready = await f5('Seminar ready', 20);
  // Approved and left there: home offers to move it to ready for processing.
  const approved = await f5('Seminar approved', 25);
  for (const r of [submitted, paid, ready, approved]) await coordinator.post(`/payment-requests/${r.formType}/${r.id}/submit`, {});
  const [code] = await w.api.get('/approval-codes?PaymentRequestType=F5');
  for (const r of [paid, ready, approved]) {
    await w.api.post(`/payment-requests/F5/${r.id}/approve`, {
      approvedAmount: r.requestedAmount,
      approvalCodeId: code.id,
      fundId: w.fund.id,
      expenseAccountId: w.account.id,
      acknowledgeWarnings: true,
    });
  }
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [paid.id] });
  const year = await yearOfToday(w.api);
  const range = { fiscalYearId: year.id, startDate: today(), endDate: today(), minutesOffset: 0 };
  const preview = await w.api.get(`/reports/vendor-payments?FiscalYearId=${year.id}&StartDate=${today()}&EndDate=${today()}&MinutesOffset=0&Page=1&Size=100`);
  const report = await w.api.post('/reports/vendor-payments', { ...range, expectedCount: preview.totalCount, expectedTotal: preview.totals.amount });
  await w.api.post('/payment-requests/move-to-statuses/ready-for-processing/batch', { ids: [ready.id] });
  const participant = (await w.api.get(`/participants?FullName=${encodeURIComponent(w.payeeName)}`)).items[0];
  // A closed year with a line (its read-only budget) and an empty year after it (the copy
  // dialog), far ahead of today's and of the other specs' years (years may not overlap).
  const yearAhead = (n: number) => {
    const fy = fiscalYear(n);
    return { ...fy, name: `FY ${fy.name}` };
  };
  const closedYear = await w.api.post('/system-settings/fiscal-years', yearAhead(20));
  const emptyYear = await w.api.post('/system-settings/fiscal-years', yearAhead(21));
  await w.api.put('/budgets/bulk-update', {
    fiscalYearId: closedYear.id,
    lines: [{ mentorProgramId: w.program.id, fundId: w.fund.id, expenseAccountId: w.account.id, amount: 500 }],
  });
  await w.api.post(`/system-settings/fiscal-years/${closedYear.id}/close`, { reason: 'Books closed' });
  // A Coordinator without a login: her page offers "Create login".
  const loginless = await w.api.post('/participants', {
    firstName: 'Lena',
    lastName: `Nologin ${w.program.id}`,
    email: `lena.nologin.${w.program.id}.${Date.now()}@example.org`,
    status: 'Active',
    roleCode: 'Coordinator',
    participations: [{ mentorProgramId: w.program.id, fiscalYearId: year.id, roleCode: 'Coordinator', startDate: year.startDate }],
  });
  return { w, submitted, draft, approved, report, year, participant, closedYear, emptyYear, loginless };
}

const seeds = new Map<string, Promise<Seeded>>();

/** The data of the screens, made once per server (the fiscal years it makes may not repeat). */
export function seed(request: APIRequestContext, baseURL: string): Promise<Seeded> {
  if (!seeds.has(baseURL)) seeds.set(baseURL, makeSeed(request, baseURL));
  return seeds.get(baseURL)!;
}

export interface Screen {
  path: string;
  /** Waits until the screen shows what it is about. */
  ready: (page: Page) => Promise<void>;
  /** Shown before signing in. */
  signedOut?: boolean;
}

const heading = (name: string | RegExp) => async (p: Page) => {
  await expect(p.getByRole('heading', { level: 1, name })).toBeVisible();
};

export const REPORT_PATHS = [
  'mentor-program-reimbursements',
  'participants',
  'approvals-by-accounts',
  'all-approvals',
  'approvals-by-request-type',
  'actual-vs-budget',
  'all-payments-requests',
  'historical-bonuses',
];

/** Every route of the router, in its loaded state. */
export function screens(s: Seeded): Screen[] {
  const { w, submitted, draft, report, year, participant, closedYear } = s;
  const program = `MentorProgramId=${w.program.id}`;
  return [
    { path: '/login', ready: heading('Sign in'), signedOut: true },
    { path: '/forgot-password', ready: heading('Forgot password'), signedOut: true },
    { path: '/set-password?email=a%40example.org&token=x', ready: heading('Set password'), signedOut: true },
    {
      path: `/?${program}`,
      ready: async (p) => {
        await heading('Payment requests')(p);
        await expect(p.getByRole('table', { name: 'Payment requests' }).getByRole('link', { name: `F3 #${submitted.id}`, exact: true })).toBeVisible();
      },
    },
    { path: `/payment-requests/details?${program}`, ready: heading('Payment request details') },
    { path: '/payment-request/F3/create', ready: heading('New payment request (F3)') },
    { path: `/payment-request/F3/${submitted.id}/details`, ready: heading(new RegExp(`F3 #${submitted.id}`)) },
    { path: `/payment-request/F3/${draft.id}/edit`, ready: heading(new RegExp(`F3 #${draft.id}`)) },
    { path: `/payment-request/F3/${submitted.id}/approve`, ready: heading(new RegExp(`F3 #${submitted.id}`)) },
    { path: '/participant/list', ready: heading('Participant Management') },
    { path: '/participant/create', ready: heading(/New participant/) },
    { path: '/participant/import', ready: heading('Import participants') },
    { path: `/participant/${participant.id}/details`, ready: heading(new RegExp(w.payeeName)) },
    { path: `/participant/${participant.id}/edit`, ready: heading(new RegExp(w.payeeName)) },
    { path: '/settings', ready: heading('Settings') },
    { path: '/settings/general', ready: heading('General settings') },
    { path: '/settings/template-validation', ready: heading('Template validation') },
    { path: '/settings/approval-rules', ready: heading('Approval rules') },
    { path: '/settings/notification-banner', ready: heading('Notification banner') },
    { path: '/settings/block-login', ready: heading('Block login') },
    { path: '/settings/sign-on', ready: async (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
    { path: '/settings/security', ready: async (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
    { path: '/settings/reference', ready: heading('Reference lists') },
    { path: '/settings/reference/funds', ready: heading('Reference lists') },
    { path: '/settings/users', ready: heading('Users') },
    { path: '/settings/roles', ready: heading('Roles') },
    {
      path: '/settings/outbox',
      ready: async (p) => {
        await heading('Outbox')(p);
        await expect(p.getByRole('table', { name: 'Outbox' }).getByRole('row').nth(1)).toBeVisible();
      },
    },
    {
      path: '/settings/audit-log',
      ready: async (p) => {
        await heading('Audit trail')(p);
        await expect(p.getByTestId('audit-row').first()).toBeVisible();
      },
    },
    { path: '/budget/list', ready: heading('Budgets') },
    {
      path: `/budget/${year.id}/details`,
      ready: async (p) => {
        await heading(new RegExp(year.name))(p);
        await expect(p.getByTestId('budget-line').first()).toBeVisible();
      },
    },
    {
      path: `/budget/${closedYear.id}/details`,
      ready: async (p) => {
        await heading(new RegExp(closedYear.name))(p);
        await expect(p.getByTestId('closed-year')).toBeVisible();
      },
    },
    { path: '/reports', ready: heading('Reports') },
    ...REPORT_PATHS.map((path) => ({ path: `/reports/${path}`, ready: async (p: Page) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() })),
    { path: '/reports/vendor-payment/list', ready: heading(/vendor payment/i) },
    { path: '/reports/vendor-payment/generate', ready: heading(/vendor payment/i) },
    { path: `/reports/vendor-payment/${report.id}/details`, ready: heading(`Vendor payment report #${report.id}`) },
  ];
}

/**
 * A dialog, menu or panel a person opens on a route, shared by the screen-wide specs like the
 * routes above: axe checks it open at 1280 and 390 px, the reflow spec measures it at 320 px.
 * Each opens from anywhere in the signed-in app (it goes to its route itself) and leaves the
 * page with nothing open.
 */
export interface Opening {
  name: string;
  /** Goes to its route, opens it and waits until it shows what it is about. */
  open: (page: Page) => Promise<void>;
  /** What is open, to be measured: a dialog, a menu or list, or the page's main for a panel. */
  within: (page: Page) => Locator;
  /** Closes it (a panel has nothing to close). */
  close?: (page: Page) => Promise<void>;
  /** Only in a narrow window (the side menu is a button there). */
  narrowOnly?: boolean;
}

const escape = async (p: Page) => {
  await p.keyboard.press('Escape');
};
const dialog = (name: string | RegExp) => (p: Page) => p.getByRole('dialog', { name });
const wholePage = (p: Page) => p.locator('main');
/**
 * Goes to a screen and waits until it has loaded: its heading, put in place of the loading one,
 * takes the focus then, and would close a menu or popover opened before.
 */
const arrive = async (p: Page, path: string) => {
  await go(p, path);
  await settled(p);
};
/** Leaves an edited form by its Cancel Changes dialog: the next screen opens without asking. */
const leaveUnsaved = async (p: Page) => {
  await p.getByRole('dialog', { name: 'Cancel Changes' }).getByRole('button', { name: 'Cancel Changes' }).click();
  await expect(p.getByRole('dialog')).toHaveCount(0);
};

/**
 * Every dialog, menu and panel of the screens, open. `tag` makes what one walk creates unique
 * (the import's people), as each width walks them on one server.
 */
export function openings(s: Seeded, tag: string): Opening[] {
  const { w, submitted, approved, closedYear, emptyYear, participant, year, loginless } = s;
  // On a narrow screen the decision is folded away behind its button (left open by a step before).
  const unfoldApproval = async (p: Page) => {
    const toggle = p.getByRole('button', { name: 'Approve or send back' });
    await expect(toggle.or(p.getByRole('region', { name: 'Approval' })).first()).toBeVisible();
    if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  };
  const userMenu = (p: Page) => p.getByRole('button', { name: /User menu/ });
  const fromUserMenu = (item: string, title: string, shown: (d: Locator) => Promise<void>): Opening => ({
    name: `${item} dialog`,
    open: async (p) => {
      await userMenu(p).click();
      await p.getByRole('menuitem', { name: item }).click();
      await shown(p.getByRole('dialog', { name: title }));
    },
    within: dialog(title),
    close: async (p) => {
      await escape(p);
      await expect(p.getByRole('dialog')).toHaveCount(0);
    },
  });
  return [
    {
      name: 'side menu, open',
      narrowOnly: true,
      open: async (p) => {
        await arrive(p, '/reports');
        await p.getByRole('button', { name: 'Menu', exact: true }).click();
        await expect(p.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' })).toBeInViewport();
      },
      within: (p) => p.getByRole('navigation', { name: 'Main menu' }),
      close: async (p) => p.getByRole('button', { name: 'Menu', exact: true }).click(),
    },
    {
      name: 'audit trail, chain checked',
      open: async (p) => {
        await arrive(p, '/settings/audit-log');
        await expect(p.getByTestId('audit-row').first()).toBeVisible();
        await p.getByRole('button', { name: 'Check the chain' }).click();
        await expect(p.getByTestId('chain-ok')).toBeVisible();
      },
      within: wholePage,
    },
    {
      name: 'new request menu',
      open: async (p) => {
        await arrive(p, `/?MentorProgramId=${w.program.id}`);
        await p.getByRole('button', { name: 'New request' }).click();
        await expect(p.getByRole('menuitem').first()).toBeVisible();
      },
      within: (p) => p.getByRole('menu'),
      close: escape,
    },
    {
      name: 'status filter, open',
      open: async (p) => {
        await arrive(p, `/?MentorProgramId=${w.program.id}`);
        await p.getByRole('textbox', { name: 'Status' }).click();
        await expect(p.getByRole('option', { name: 'Approved' })).toBeVisible();
      },
      within: (p) => p.getByRole('listbox'),
      close: escape,
    },
    {
      name: 'move to ready for processing dialog',
      open: async (p) => {
        await arrive(p, `/?MentorProgramId=${w.program.id}&FormStatus=Approved`);
        await p.getByRole('checkbox', { name: `Select request ${approved.id}` }).check();
        await p.getByRole('button', { name: /Move to ready for processing/ }).click();
        await expect(p.getByRole('dialog', { name: 'Move to ready for processing' })).toBeVisible();
      },
      within: dialog('Move to ready for processing'),
      close: async (p) => p.getByRole('button', { name: 'Keep as they are' }).click(),
    },
    {
      name: 'export menu',
      open: async (p) => {
        await arrive(p, `/reports/${REPORT_PATHS[0]}`);
        await p.getByTestId('export-menu').getByRole('button', { name: 'Export' }).click();
        await expect(p.getByRole('menuitem', { name: 'CSV' })).toBeVisible();
      },
      within: (p) => p.getByRole('menu'),
      close: escape,
    },
    {
      name: 'column picker',
      open: async (p) => {
        await arrive(p, '/reports/participants');
        await p.getByRole('button', { name: /^Columns/ }).click();
        await expect(p.getByRole('dialog').getByRole('checkbox').first()).toBeVisible();
      },
      within: (p) => p.getByRole('dialog'),
      close: escape,
    },
    {
      name: 'vendor payment preview',
      open: async (p) => {
        await arrive(p, '/reports/vendor-payment/generate');
        await p.getByLabel('Approved from').fill(today());
        await p.getByLabel('Approved to').fill(today());
        await p.getByLabel('Approved to').press('Tab');
        await expect(p.getByTestId('vendor-payment-preview-summary')).toContainText('ready for processing');
      },
      within: wholePage,
    },
    {
      // Unfolded on a narrow screen, checked with warnings or none.
      name: 'approve panel, checked',
      open: async (p) => {
        await arrive(p, `/payment-request/F3/${submitted.id}/approve`);
        await unfoldApproval(p);
        const approval = p.getByRole('region', { name: 'Approval' });
        await pick(p, approval, 'Approval code');
        await pick(p, approval, 'Fund', w.fund.name);
        await pick(p, approval, 'Expense account', w.account.name);
        await expect(approval.getByText('No problems found').or(approval.getByLabel('I have read the warnings and approve anyway'))).toBeVisible();
      },
      within: wholePage,
    },
    {
      name: 'send back dialog',
      open: async (p) => {
        await arrive(p, `/payment-request/F3/${submitted.id}/approve`);
        await unfoldApproval(p);
        await p.getByRole('region', { name: 'Approval' }).getByRole('button', { name: 'Send back…' }).click();
        await expect(p.getByRole('dialog', { name: 'Send for revision' })).toBeVisible();
      },
      within: dialog('Send for revision'),
      close: escape,
    },
    {
      name: 'send for revision dialog, its error shown',
      open: async (p) => {
        await arrive(p, `/payment-request/F3/${submitted.id}/details`);
        await p.getByRole('button', { name: 'Send for revision' }).click();
        const revision = p.getByRole('dialog', { name: 'Send for revision' });
        await revision.getByRole('button', { name: 'Send for revision' }).click();
        await expect(revision.getByText('A reason is required')).toBeVisible();
      },
      within: dialog('Send for revision'),
      close: escape,
    },
    {
      name: 'cancel changes dialog',
      open: async (p) => {
        await arrive(p, `/participant/${participant.id}/edit`);
        await p.getByLabel('Phone').fill('916-555-0199');
        await p.getByRole('button', { name: 'Cancel', exact: true }).click();
        await expect(p.getByRole('dialog', { name: 'Cancel Changes' })).toBeVisible();
      },
      within: dialog('Cancel Changes'),
      close: leaveUnsaved,
    },
    {
      name: 'save changes dialog',
      open: async (p) => {
        await arrive(p, `/participant/${participant.id}/edit`);
        await p.getByLabel('Phone').fill('916-555-0198');
        await p.getByRole('button', { name: 'Save Changes' }).click();
        await expect(p.getByRole('dialog', { name: 'Save Changes' })).toBeVisible();
      },
      within: dialog('Save Changes'),
      close: async (p) => {
        await p.getByRole('button', { name: 'Keep editing' }).click();
        await p.getByRole('button', { name: 'Cancel', exact: true }).click();
        await leaveUnsaved(p);
      },
    },
    {
      name: 'add participation dialog',
      open: async (p) => {
        await arrive(p, `/participant/${participant.id}/details`);
        await p.getByRole('button', { name: 'Add participation' }).click();
        await expect(p.getByRole('dialog', { name: 'Add participation' }).getByRole('textbox', { name: 'Mentor program' })).toBeVisible();
      },
      within: dialog('Add participation'),
      close: escape,
    },
    {
      name: 'edit participation dialog',
      open: async (p) => {
        await arrive(p, `/participant/${participant.id}/details`);
        await p.getByRole('table', { name: 'Participations' }).getByRole('button', { name: 'Edit' }).first().click();
        await expect(p.getByRole('dialog', { name: 'Edit participation' }).getByRole('textbox', { name: 'Mentor program' })).toBeVisible();
      },
      within: dialog('Edit participation'),
      close: escape,
    },
    {
      name: 'create login dialog',
      open: async (p) => {
        await arrive(p, `/participant/${loginless.id}/details`);
        await p.getByRole('button', { name: 'Create login' }).click();
        await expect(p.getByRole('dialog', { name: 'Create login' })).toBeVisible();
      },
      within: dialog('Create login'),
      close: escape,
    },
    {
      name: 'new mentor program dialog',
      open: async (p) => {
        await arrive(p, '/settings/reference/mentor-programs');
        await p.getByRole('button', { name: 'New mentor program' }).click();
        await expect(p.getByRole('dialog', { name: 'New mentor program' }).getByRole('textbox', { name: 'Colleges' })).toBeVisible();
      },
      within: dialog('New mentor program'),
      close: escape,
    },
    {
      name: 'approval rule dialog',
      open: async (p) => {
        await arrive(p, '/settings/approval-rules');
        await p.getByRole('button', { name: /^Edit / }).first().click();
        await expect(p.getByRole('dialog', { name: /^Approval rule:/ })).toBeVisible();
      },
      within: dialog(/^Approval rule:/),
      close: escape,
    },
    {
      name: 'e-mail participants dialog',
      open: async (p) => {
        await arrive(p, '/reports/participants');
        await p.getByRole('button', { name: 'E-mail these participants' }).click();
        await expect(p.getByRole('dialog', { name: 'E-mail these participants' })).toBeVisible();
      },
      within: dialog('E-mail these participants'),
      close: escape,
    },
    {
      name: 'new fiscal year dialog',
      open: async (p) => {
        await arrive(p, '/budget/list');
        await p.getByRole('button', { name: 'New fiscal year' }).click();
        await expect(p.getByRole('dialog', { name: 'New fiscal year' })).toBeVisible();
      },
      within: dialog('New fiscal year'),
      close: escape,
    },
    {
      name: 'close fiscal year dialog (the year close preview)',
      open: async (p) => {
        await arrive(p, `/budget/${year.id}/details`);
        await p.getByRole('button', { name: 'Close year…' }).click();
        await expect(p.getByRole('dialog', { name: `Close ${year.name}` })).toBeVisible();
      },
      within: dialog(`Close ${year.name}`),
      close: escape,
    },
    {
      name: 'reopen fiscal year dialog, its error shown',
      open: async (p) => {
        await arrive(p, `/budget/${closedYear.id}/details`);
        await p.getByRole('button', { name: 'Reopen year…' }).click();
        const reopen = p.getByRole('dialog', { name: `Reopen ${closedYear.name}` });
        await reopen.getByRole('button', { name: 'Reopen fiscal year' }).click();
        await expect(reopen.getByText('A reason is required')).toBeVisible();
      },
      within: dialog(`Reopen ${closedYear.name}`),
      close: escape,
    },
    {
      name: 'copy budget dialog, its preview',
      open: async (p) => {
        await arrive(p, `/budget/${emptyYear.id}/details`);
        await p.getByRole('button', { name: 'Copy from last year…' }).click();
        await expect(p.getByRole('dialog', { name: `Copy a budget into ${emptyYear.name}` }).getByTestId('copy-total')).toHaveText('$500.00');
      },
      within: dialog(`Copy a budget into ${emptyYear.name}`),
      close: escape,
    },
    {
      name: 'import preview: a row in error, a row to create',
      open: async (p) => {
        await arrive(p, '/participant/import');
        const chooser = p.waitForEvent('filechooser');
        await p.getByRole('button', { name: 'Choose a file…' }).click();
        await (await chooser).setFiles({
          name: 'people.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`firstName,lastName,email,status,roleCode\r\nIma,Axe${tag},ima.axe${tag}@example.org,Active,Mentor\r\nBad,Axe,not-an-email,Active,Mentor\r\n`),
        });
        await expect(p.getByRole('table', { name: 'Rows with errors' })).toBeVisible();
      },
      within: wholePage,
    },
    {
      name: 'invite user dialog',
      open: async (p) => {
        await arrive(p, '/settings/users');
        await p.getByRole('button', { name: 'Invite user' }).click();
        await expect(p.getByRole('dialog', { name: 'Invite a user' })).toBeVisible();
      },
      within: dialog('Invite a user'),
      close: escape,
    },
    {
      name: 'edit user dialog',
      open: async (p) => {
        // The world's Coordinator: the longest address of the seed, and a linked participant.
        await arrive(p, '/settings/users');
        await p.getByRole('textbox', { name: 'Email' }).fill(s.w.coordinatorEmail);
        const users = p.getByRole('table', { name: 'Users' });
        await expect(users.getByRole('row')).toHaveCount(2);
        await users.getByRole('button', { name: /^Edit / }).click();
        await expect(p.getByRole('dialog', { name: /^Edit / })).toBeVisible();
      },
      within: dialog(/^Edit /),
      close: escape,
    },
    {
      name: 'role form',
      open: async (p) => {
        await arrive(p, '/settings/roles');
        await p.getByRole('button', { name: 'New role' }).click();
        await expect(p.getByRole('dialog', { name: 'New role' })).toBeVisible();
      },
      within: dialog('New role'),
      close: escape,
    },
    {
      name: 'user menu',
      open: async (p) => {
        await userMenu(p).click();
        await expect(p.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
      },
      within: (p) => p.getByRole('menu'),
      close: escape,
    },
    fromUserMenu('Notifications…', 'Notifications', (d) => expect(d.getByRole('radio', { name: 'At once' })).toBeChecked()),
    fromUserMenu('Out of office…', 'Out of office', (d) => expect(d.getByLabel('First day away')).toBeVisible()),
    fromUserMenu('Two-step sign-in…', 'Two-step sign-in', (d) => expect(d).toBeVisible()),
    fromUserMenu('Where you are signed in…', 'Where you are signed in', (d) => expect(d.getByRole('table')).toBeVisible()),
  ];
}
