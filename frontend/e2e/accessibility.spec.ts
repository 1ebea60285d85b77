import type { Page } from '@playwright/test';
import { axeWcagTags, findings, settled, WCAG_TAGS, type Finding } from './axe';
import { expect, signIn, test } from './fixtures';
import { today } from './dates';
import { pick } from './requests';
import { go, REPORT_PATHS, screens, seed } from './screens';

// axe-core's WCAG 2.x A and AA rules and its best practices on every route of the router, each
// in its loaded state with data, and on every dialog, menu and panel a person opens there, in a
// 1280 px window and in a 390 px one (a phone: the side menu is a menu button, the approve
// screen's decision folds away). One signed-in page walks them all (one sign-in, one set of data
// made through the API), and the findings of every screen are reported together: a new
// violation anywhere fails the suite and names its screen and width.

test('the axe tags are every WCAG 2.x A and AA tag axe-core knows, and its best practices', () => {
  expect(WCAG_TAGS).toEqual(expect.arrayContaining([...axeWcagTags(), 'best-practice']));
});

test.use({ actionTimeout: 10_000 });

for (const width of [1280, 390]) {
  test(`at ${width} px every route, dialog, menu and panel passes axe-core WCAG 2.2 A and AA and its best practices`, async ({ page, request, baseURL }) => {
    test.setTimeout(480_000);
    const narrow = width < 768;
    await page.setViewportSize({ width, height: narrow ? 844 : 800 });
    const data = await seed(request, baseURL!);
    const { w, submitted, approved, closedYear, emptyYear, participant } = data;
    const found: Finding[] = [];
    const check = async (screen: string) => {
      await settled(page);
      const now = await findings(page, `${width} px ${screen}`);
      // Said as they are found: a later step that fails still leaves them in the report.
      for (const f of now) console.log(`${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`);
      found.push(...now);
    };
    const all = screens(data);
    for (const screen of all.filter((s) => s.signedOut)) {
      await go(page, screen.path);
      await screen.ready(page);
      await check(screen.path);
    }
    await signIn(page);
    for (const screen of all.filter((s) => !s.signedOut)) {
      await go(page, screen.path);
      await screen.ready(page);
      await check(screen.path);
    }

    // The side menu, opened from its button on a narrow screen.
    if (narrow) {
      await go(page, '/reports');
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Budgets' })).toBeInViewport();
      await check('side menu, open');
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
    }

    // The audit trail's chain, checked.
    await go(page, '/settings/audit-log');
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    await page.getByRole('button', { name: 'Check the chain' }).click();
    await expect(page.getByTestId('chain-ok')).toBeVisible();
    await check('audit trail, chain checked');

    // Home: the new-request menu, the status filter's list, the move to ready for processing.
    await go(page, `/?MentorProgramId=${w.program.id}`);
    await page.getByRole('button', { name: 'New request' }).click();
    await expect(page.getByRole('menuitem').first()).toBeVisible();
    await check('new request menu');
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Status' }).click();
    await expect(page.getByRole('option', { name: 'Approved' })).toBeVisible();
    await check('status filter, open');
    await page.getByRole('option', { name: 'Approved' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: `Select request ${approved.id}` }).check();
    await page.getByRole('button', { name: /Move to ready for processing/ }).click();
    await expect(page.getByRole('dialog', { name: 'Move to ready for processing' })).toBeVisible();
    await check('move to ready for processing dialog');
    await page.getByRole('button', { name: 'Keep as they are' }).click();

    // A report: its export menu and its column picker, open.
    await go(page, `/reports/${REPORT_PATHS[0]}`);
    await page.getByTestId('export-menu').getByRole('button', { name: 'Export' }).click();
    await expect(page.getByRole('menuitem', { name: 'CSV' })).toBeVisible();
    await check('export menu');
    await page.keyboard.press('Escape');
    await go(page, '/reports/participants');
    await page.getByRole('button', { name: /^Columns/ }).click();
    await expect(page.getByRole('dialog').getByRole('checkbox').first()).toBeVisible();
    await check('column picker');
    await page.keyboard.press('Escape');

    // The vendor payment preview, with a request to pay.
    await go(page, '/reports/vendor-payment/generate');
    await page.getByLabel('Approved from').fill(today());
    await page.getByLabel('Approved to').fill(today());
    await page.getByLabel('Approved to').press('Tab');
    await expect(page.getByTestId('vendor-payment-preview-summary')).toContainText('ready for processing');
    await check('vendor payment preview');

    // The approve panel (unfolded on a narrow screen), checked with warnings or none; its
    // send-back dialog.
    await go(page, `/payment-request/F3/${submitted.id}/approve`);
    if (narrow) await page.getByRole('button', { name: 'Approve or send back' }).click();
    const approval = page.getByRole('region', { name: 'Approval' });
    await pick(page, approval, 'Approval code');
    await pick(page, approval, 'Fund', w.fund.name);
    await pick(page, approval, 'Expense account', w.account.name);
    await expect(approval.getByText('No problems found').or(approval.getByLabel('I have read the warnings and approve anyway'))).toBeVisible();
    await check('approve panel, checked');
    await approval.getByRole('button', { name: 'Send back…' }).click();
    await expect(page.getByRole('dialog', { name: 'Send for revision' })).toBeVisible();
    await check('send back dialog');
    await page.keyboard.press('Escape');

    // Send for revision, with its error shown.
    await go(page, `/payment-request/F3/${submitted.id}/details`);
    await page.getByRole('button', { name: 'Send for revision' }).click();
    const revision = page.getByRole('dialog', { name: 'Send for revision' });
    await revision.getByRole('button', { name: 'Send for revision' }).click();
    await expect(revision.getByText('A reason is required')).toBeVisible();
    await check('send for revision dialog');
    await page.keyboard.press('Escape');

    // Both confirmation dialogs, from a participant being edited.
    await go(page, `/participant/${participant.id}/edit`);
    await page.getByLabel('Phone').fill('916-555-0199');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Cancel Changes' })).toBeVisible();
    await check('cancel changes dialog');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('dialog', { name: 'Save Changes' })).toBeVisible();
    await check('save changes dialog');
    await page.getByRole('button', { name: 'Keep editing' }).click();

    // The fiscal years' dialogs: new, close, reopen (its reason missing), copy a budget (its preview).
    await go(page, '/budget/list');
    await page.getByRole('button', { name: 'New fiscal year' }).click();
    await expect(page.getByRole('dialog', { name: 'New fiscal year' })).toBeVisible();
    await check('new fiscal year dialog');
    await page.keyboard.press('Escape');
    await go(page, `/budget/${data.year.id}/details`);
    await page.getByRole('button', { name: 'Close year…' }).click();
    await expect(page.getByRole('dialog', { name: `Close ${data.year.name}` })).toBeVisible();
    await check('close fiscal year dialog');
    await page.keyboard.press('Escape');
    await go(page, `/budget/${closedYear.id}/details`);
    await page.getByRole('button', { name: 'Reopen year…' }).click();
    const reopen = page.getByRole('dialog', { name: `Reopen ${closedYear.name}` });
    await reopen.getByRole('button', { name: 'Reopen fiscal year' }).click();
    await expect(reopen.getByText('A reason is required')).toBeVisible();
    await check('reopen fiscal year dialog');
    await page.keyboard.press('Escape');
    await go(page, `/budget/${emptyYear.id}/details`);
    await page.getByRole('button', { name: 'Copy from last year…' }).click();
    await expect(page.getByRole('dialog', { name: `Copy a budget into ${emptyYear.name}` }).getByTestId('copy-total')).toHaveText('$500.00');
    await check('copy budget dialog');
    await page.keyboard.press('Escape');

    // The import preview: a row in error, a row to create.
    await go(page, '/participant/import');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a file…' }).click();
    await (await chooser).setFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`firstName,lastName,email,status,roleCode\r\nIma,Axe${width},ima.axe${width}@example.org,Active,Mentor\r\nBad,Axe,not-an-email,Active,Mentor\r\n`),
    });
    await expect(page.getByRole('table', { name: 'Rows with errors' })).toBeVisible();
    await check('import preview');

    // The user and role forms.
    await go(page, '/settings/users');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await expect(page.getByRole('dialog', { name: 'Invite a user' })).toBeVisible();
    await check('user form');
    await page.keyboard.press('Escape');
    await go(page, '/settings/roles');
    await page.getByRole('button', { name: 'New role' }).click();
    await expect(page.getByRole('dialog', { name: 'New role' })).toBeVisible();
    await check('role form');
    await page.keyboard.press('Escape');

    // The user menu, open, and each of its dialogs.
    const userMenu = page.getByRole('button', { name: /User menu/ });
    await userMenu.click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await check('user menu');
    await page.keyboard.press('Escape');
    const dialogs: [string, (p: Page) => Promise<void>][] = [
      ['Notifications…', async (p) => expect(p.getByRole('dialog', { name: 'Notifications' }).getByRole('radio', { name: 'At once' })).toBeChecked()],
      ['Out of office…', async (p) => expect(p.getByRole('dialog', { name: 'Out of office' }).getByLabel('First day away')).toBeVisible()],
      ['Two-step sign-in…', async (p) => expect(p.getByRole('dialog', { name: 'Two-step sign-in' })).toBeVisible()],
      ['Where you are signed in…', async (p) => expect(p.getByRole('dialog', { name: 'Where you are signed in' }).getByRole('table')).toBeVisible()],
    ];
    for (const [item, shown] of dialogs) {
      await userMenu.click();
      await page.getByRole('menuitem', { name: item }).click();
      await shown(page);
      await check(`${item} dialog`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }

    expect(found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`)).toEqual([]);
  });
}
