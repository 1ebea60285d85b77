import { findings } from './axe';
import { expect, mailedLink, signIn, test } from './fixtures';
import { chooseOption, focusProblems, tabTo } from './keyboard';
import { apiAs, unique, yearOfToday } from './requests';

// Inviting a Coordinator from Settings > Users by keyboard alone: her participant is picked
// (the server refuses the invitation without it), the dialog says how long the link lives, and
// with no mail relay (this server has none) it hands the link over to copy. Sent again, the
// link changes and the old one dies.

test('a Coordinator is invited with her participant by keyboard, and given the link to copy without a relay', async ({
  page,
  request,
  baseURL,
  server,
}) => {
  test.setTimeout(150_000);
  const api = await apiAs(request, baseURL!);
  const year = await yearOfToday(api);
  const tag = unique();
  const program = await api.post('/mentor-programs', { name: `Invite ${tag}`, code: `I${tag}`.slice(0, 20) });
  const email = `ina.${tag}@example.org`.toLowerCase();
  await api.post('/participants', {
    firstName: 'Ina',
    lastName: `Vite${tag}`,
    email,
    status: 'Active',
    roleCode: 'Coordinator',
    participations: [{ mentorProgramId: program.id, fiscalYearId: year.id, roleCode: 'Coordinator', startDate: year.startDate }],
  });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });

  await signIn(page);
  await page.goto('/settings/users');
  await tabTo(page, page.getByRole('button', { name: 'Invite user' }));
  await page.keyboard.press('Enter');
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  // What the link promises, from the server: three days, and no relay here.
  await expect(invite.getByTestId('invitation-terms')).toHaveText(/No mail relay is set up.*valid for 3 days/);

  // Typed in by hand, a Coordinator lacks her participant.
  await expect(invite.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Ina');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Typed');
  await tabTo(page, invite.getByRole('textbox', { name: 'Roles' }));
  await chooseOption(page, 'Coordinator', { type: true });
  const picker = invite.getByRole('textbox', { name: 'Her participant' });
  await expect(picker).toBeVisible();
  expect(await findings(page, 'invite dialog, a Coordinator without her participant')).toEqual([]);

  // Sent without her participant, the server names the field and nothing is made.
  await tabTo(page, invite.getByRole('button', { name: 'Send invitation' }));
  await page.keyboard.press('Enter');
  await expect(invite.getByText(/A Coordinator sees her programs through her participant/).first()).toBeVisible();
  await expect(picker).toHaveAttribute('aria-invalid', 'true');

  // Picked by e-mail, her participant fills in the e-mail and the names.
  await tabTo(page, picker, { back: true });
  await page.keyboard.type(email);
  await expect(page.getByRole('option', { name: new RegExp(email.replace(/[.]/g, '\\.')) })).toBeVisible();
  await chooseOption(page, email);
  await expect(invite.getByLabel('E-mail')).toHaveValue(email);
  await expect(invite.getByLabel('Last name')).toHaveValue(`Vite${tag}`);
  expect(await findings(page, 'invite dialog, her participant picked')).toEqual([]);

  await tabTo(page, invite.getByRole('button', { name: 'Send invitation' }));
  await page.keyboard.press('Enter');

  // No relay: the dialog says so and hands over the link, with the focus on "Done".
  const sent = page.getByRole('dialog', { name: `${email} is invited` });
  await expect(sent.getByText('The invitation was not e-mailed')).toBeVisible();
  await expect(sent.getByText(/valid for 3 days/)).toBeVisible();
  await expect(sent.getByRole('button', { name: 'Done' })).toBeFocused();
  const field = sent.getByLabel('Set-password link');
  const first = await field.inputValue();
  expect(first).toContain(await mailedLink(server, email));
  await tabTo(page, sent.getByRole('button', { name: 'Copy link' }));
  await page.keyboard.press('Enter');
  await expect(sent.getByRole('button', { name: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
  expect(await findings(page, 'invitation with the link to copy')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await findings(page, 'invitation with the link to copy, at 390 px')).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tabTo(page, sent.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(sent).toHaveCount(0);

  // Sent again from her row: a new link, and the first one no longer works.
  await tabTo(page, page.getByLabel('Email', { exact: true }), { back: true });
  await page.keyboard.type(email);
  const again = page.getByRole('button', { name: `Send invitation again ${email}` });
  await tabTo(page, again);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Send the invitation again' });
  await tabTo(page, confirm.getByRole('button', { name: 'Send again' }));
  await page.keyboard.press('Enter');
  const resent = page.getByRole('dialog', { name: 'Invitation sent again' });
  const second = await resent.getByLabel('Set-password link').inputValue();
  expect(second).not.toBe(first);
  await page.keyboard.press('Enter');
  await expect(resent).toHaveCount(0);

  const parts = (link: string) => Object.fromEntries(new URL(link).searchParams);
  const validate = (link: string) => request.post(`${baseURL}/api/v1/identity/reset-token/validate`, { data: parts(link) });
  expect((await validate(first)).status()).toBe(422);
  expect((await validate(second)).status()).toBe(200);

  // With the new link she chooses her password and sees her program.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.goto(second);
  await page.getByLabel('New password').fill('ina-chose-this-one');
  await page.getByLabel('Confirm password').fill('ina-chose-this-one');
  await page.getByLabel('Confirm password').press('Enter');
  await expect(page).toHaveURL(/\/login/);
  const login = await request.post(`${baseURL}/api/v1/identity/login`, { data: { email, password: 'ina-chose-this-one' } });
  const ina = await apiAs(request, baseURL!, (await login.json()).accessToken);
  expect((await ina.get('/mentor-programs/mine')).mentorProgramIds).toEqual([program.id]);
  expect(focusProblems).toEqual([]);
});
