import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { currentFiscalYear } from './dates';
import { adminToken, expect } from './fixtures';

// Helpers of the payment request specs: the world of one test (program, payee, Coordinator,
// funded budget line) made through the API, and the steps of the request form.

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
export const PASSWORD = 'Coordinator-password-1';

/** JSON calls with a bearer token (the Administrator's unless given). */
export async function apiAs(request: APIRequestContext, baseURL: string, token?: string) {
  const auth = { Authorization: `Bearer ${token ?? (await adminToken(request, baseURL))}` };
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) => {
    const send = () => request.fetch(`${baseURL}/api/v1${path}`, { method, headers: auth, data });
    // The server closes a keep-alive connection after a few idle seconds; a read that races that
    // close on a reused socket is reset before the server saw it, so a GET is sent once more.
    const response = await send().catch((e: Error) => {
      if (method === 'GET' && e.message.includes('ECONNRESET')) return send();
      throw e;
    });
    expect([200, 201, 204], `${method} ${path}: ${await response.text()}`).toContain(response.status());
    return response.status() === 204 ? undefined : response.json();
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, d: unknown) => call('POST', p, d),
    put: (p: string, d: unknown) => call('PUT', p, d),
    delete: (p: string) => call('DELETE', p),
  };
}

/** The fiscal year holding today, made once per server: submissions happen today and are
 * charged to it (years may not overlap, so it is reused). */
export async function yearOfToday(api: { get(p: string): Promise<unknown>; post(p: string, d: unknown): Promise<unknown> }) {
  const fy = currentFiscalYear();
  const years = (await api.get('/system-settings/fiscal-years')) as { id: number; name: string }[];
  const year = years.find((y) => y.name === fy.name) ?? ((await api.post('/system-settings/fiscal-years', fy)) as { id: number; name: string });
  return { ...fy, id: year.id };
}

/** The world of one test: a program, a payee, a Coordinator with a login, a funded budget line. */
export async function world(request: APIRequestContext, baseURL: string) {
  const api = await apiAs(request, baseURL);
  const year = await yearOfToday(api);
  const tag = unique();
  const program = await api.post('/mentor-programs', { name: `Requests ${tag}`, code: `R${tag}`.slice(0, 20) });
  const taking = (roleCode: string) => ({ mentorProgramId: program.id, fiscalYearId: year.id, roleCode, startDate: year.startDate });
  const person = (first: string, roleCode: string) => ({
    firstName: first,
    lastName: tag,
    email: `${first}.${tag}@example.org`.toLowerCase(),
    status: 'Active',
    roleCode,
    participations: [taking(roleCode)],
  });
  const payee = await api.post('/participants', person('Pat', 'Mentor'));
  const coordinator = await api.post('/participants', person('Cora', 'Coordinator'));
  await api.post(`/participants/${coordinator.id}/identity-user`, { password: PASSWORD });
  const funds: { id: number; name: string }[] = await api.get('/funds');
  const accounts: { id: number; name: string; code: string | null }[] = await api.get('/expense-accounts');
  // Funded, so approving leaves the line positive (no budget warning).
  await api.put('/budgets/bulk-update', {
    fiscalYearId: year.id,
    lines: [{ mentorProgramId: program.id, fundId: funds[0].id, expenseAccountId: accounts[0].id, amount: 100000 }],
  });
  return { api, program, payeeId: payee.id as number, payeeName: `Pat ${tag}`, participationId: payee.participations[0].id as number, coordinatorEmail: coordinator.email as string, fund: funds[0], account: accounts[0] };
}

export async function pick(page: Page, scope: Page | Locator, label: string, option?: string) {
  await scope.getByRole('textbox', { name: label }).click();
  const choice = option ? page.getByRole('option', { name: option }) : page.getByRole('option').first();
  await choice.click();
}

/** The payee picker lists the chosen program's participations by name. */
export async function choosePayee(page: Page, w: { program: { name: string }; payeeName: string }) {
  await pick(page, page, 'Mentor program', w.program.name);
  await pick(page, page, 'Payee', w.payeeName);
}

export async function newRequest(page: Page, code: string) {
  await page.goto('/');
  await page.getByRole('button', { name: 'New request' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${code} `) }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-request/${code}/create$`));
  // The address changes before React shows the new page (the router renders it in a transition):
  // until the form is there, Home's own "Mentor program" picker is still on screen, and a click on
  // it is lost when Home goes (the program option then never appears: the flaky F10 test).
  await expect(page.getByRole('region', { name: `New payment request (${code})` })).toBeVisible();
}

export async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save Changes' }).click();
}

/** The request id from a details URL. */
export const idOf = (page: Page) => Number(page.url().match(/\/(\d+)\/details$/)![1]);
