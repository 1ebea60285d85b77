import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { fiscalYear, recentDay, today } from './dates';
import { apiAs, PASSWORD, world, yearOfToday } from './requests';

// Every route of the router in its loaded state with data, shared by the screen-wide specs
// (axe at 1280 and 390 px, reflow at 320 px): one list, so a new route is checked by both.

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
  return { w, submitted, draft, approved, report, year, participant, closedYear, emptyYear };
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
        await expect(p.getByRole('table', { name: 'Payment requests' }).getByRole('link', { name: `F3 #${submitted.id}` })).toBeVisible();
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
