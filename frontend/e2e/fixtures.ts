import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { clockIsSet, now } from './dates';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './server';

/** One server per worker (workers: 1, so one per run unless a test fails). */
export const test = base.extend<object, { server: RunningServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  context: async ({ context }, use) => {
    await syncClock(context);
    await use(context);
  },
});
export { expect };

/**
 * With MENTORPAY_CLOCK set, the browser's clock starts where the server's is (./dates.ts) and
 * runs on: `install` moves Date and keeps time flowing, timers firing as usual (idle sign-out,
 * toasts, animations); `setFixedTime` would stop Date. Unset, the browser keeps the real clock.
 * The `page` and `context` fixtures have it; a context or page a test opens itself calls this.
 */
export async function syncClock(target: BrowserContext | Page) {
  if (clockIsSet) await target.clock.install({ time: now() });
}

/** Signs in through the login form (Enter submits) and waits to leave /login. */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
}

export async function adminToken(request: APIRequestContext, baseURL: string): Promise<string> {
  const response = await request.post(`${baseURL}/api/v1/identity/login`, {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).accessToken;
}

/** A new Coordinator user, created through the API. */
export async function createCoordinator(request: APIRequestContext, baseURL: string) {
  const email = `coordinator-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = 'Coordinator-password-1';
  const response = await request.post(`${baseURL}/api/v1/identity/users`, {
    headers: { Authorization: `Bearer ${await adminToken(request, baseURL)}` },
    data: { email, firstName: 'Cora', lastName: 'Coordinator', roles: ['Coordinator'], password },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { email, password };
}

/** Menu entry labels in order. */
export async function menuEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return nav.getByRole('link').allInnerTexts();
}

export async function storage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/** The set-password link of the last mail to `email`, read from the server's log
 * (without an SMTP relay the server writes its mails there). */
export async function mailedLink(server: RunningServer, email: string): Promise<string> {
  const pattern = new RegExp(`/set-password\\?email=${encodeURIComponent(email)}&token=[A-Za-z0-9_-]+`, 'g');
  let link: string | undefined;
  await expect.poll(() => (link = server.output.join('').match(pattern)?.pop())).toBeTruthy();
  return link!;
}
