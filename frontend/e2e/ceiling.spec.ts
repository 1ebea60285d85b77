import { adminToken, expect, signIn, test } from './fixtures';
import { findings } from './axe';
import { recentDay, today } from './dates';
import { apiAs, PASSWORD, pick, world } from './requests';
import { ADMIN_EMAIL } from './server';

// The screens offer only what the signed-in person may hand out; the server refuses the rest.
test('a helpdesk user is offered only the roles and permissions she holds, and never her own roles', async ({ page, request, baseURL }) => {
  const headers = { Authorization: `Bearer ${await adminToken(request, baseURL!)}` };
  const tag = `${Date.now()}`;
  const role = `Helpdesk ${tag}`;
  const permissions = ['user:read', 'user:edit', 'user:create', 'role:read', 'role:edit', 'permission:read', 'setting:viewmenu'];
  expect((await request.post(`${baseURL}/api/v1/identity/roles`, { headers, data: { name: role, permissions } })).status()).toBe(201);
  const email = `helpdesk-${tag}@example.org`;
  const password = 'Helpdesk-password-1';
  const created = await request.post(`${baseURL}/api/v1/identity/users`, { headers, data: { email, firstName: 'Hal', lastName: 'Desk', roles: [role], password } });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page, email, password);
  await page.goto('/settings/users');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: `Edit ${email}` }).click();
  const own = page.getByRole('dialog', { name: `Edit ${email}` });
  await expect(own.getByText('You cannot change your own roles')).toBeVisible();
  await expect(own.getByLabel('Roles')).toBeDisabled();
  expect(await findings(page, 'own user, roles locked')).toEqual([]);
  await own.getByRole('form').getByRole('button', { name: 'Close' }).click();

  await page.getByLabel('Email', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByRole('button', { name: `Edit ${ADMIN_EMAIL}` }).click();
  const boss = page.getByRole('dialog', { name: `Edit ${ADMIN_EMAIL}` });
  await expect(boss.getByLabel('E-mail')).toHaveAttribute('readonly', '');
  await expect(boss.getByText("Only an Administrator can change an Administrator's roles.")).toBeVisible();
  expect(await findings(page, "an Administrator's account, locked")).toEqual([]);
  await boss.getByRole('form').getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  await invite.getByRole('textbox', { name: 'Roles' }).click({ force: true });
  await expect(page.getByRole('option', { name: 'Administrator' })).toHaveAttribute('data-combobox-disabled', 'true');
  await expect(page.getByRole('option', { name: role })).not.toHaveAttribute('data-combobox-disabled', 'true');
  await page.keyboard.press('Escape');
  await invite.getByRole('form').getByRole('button', { name: 'Close' }).click();

  await page.goto('/settings/roles');
  await page.getByRole('button', { name: `Edit ${role}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit role ${role}` });
  await expect(edit.getByText('Permissions you do not hold yourself cannot be given or taken away.')).toBeVisible();
  await expect(edit.getByRole('checkbox', { name: 'request:approve' })).toBeDisabled();
  await expect(edit.getByRole('checkbox', { name: 'user:edit' })).toBeEnabled();
  expect(await findings(page, 'a role, permissions not held disabled')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(edit.getByRole('checkbox', { name: 'request:approve' })).toBeDisabled();
  expect(await findings(page, 'a role at 390 px')).toEqual([]);
});

test('an approver who changed the amount after submission is told why she cannot approve it', async ({ page, request, baseURL }) => {
  const w = await world(request, baseURL!);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email: w.coordinatorEmail, password: PASSWORD } });
  const coordinator = await apiAs(request, baseURL!, (await login.json()).accessToken);
  const body = {
    participationId: w.participationId,
    description: 'Fall placement',
    requestedAmount: 120.5,
    details: { collegeId: 1, menteeName: 'Ana', courseCode: 'CD 101', placementStartDate: recentDay(), placementEndDate: today(), hours: 12.5 },
  };
  const f1 = await coordinator.post('/payment-requests/F1', body);
  const submitted = await coordinator.post(`/payment-requests/F1/${f1.id}/submit`, {});
  // The Administrator raises the amount herself (she may edit), then tries to approve it.
  await w.api.put(`/payment-requests/F1/${f1.id}`, { ...body, requestedAmount: 2500, version: submitted.version });

  await signIn(page);
  await page.goto(`/payment-request/F1/${f1.id}/approve`);
  const approval = page.getByRole('region', { name: 'Approval' });
  await pick(page, approval, 'Approval code');
  await pick(page, approval, 'Fund', w.fund.name);
  await pick(page, approval, 'Expense account', w.account.name);
  await expect(approval.getByText("You changed this request's amount, payee or details after it was submitted, so another approver must approve it.")).toBeVisible();
  await expect(approval.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
  expect(await findings(page, 'approval refused after an own edit')).toEqual([]);
});
