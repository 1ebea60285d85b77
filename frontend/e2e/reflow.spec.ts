import type { Locator, Page } from '@playwright/test';
import { findings, settled, still } from './axe';
import { expect, signIn, test } from './fixtures';
import { pick } from './requests';
import { go, openings, screens, seed } from './screens';

// Reflow (WCAG 1.4.10) at 320 x 640 CSS px, the width of a 1280 px window at 400 % zoom: the page
// never scrolls sideways as a whole, the side menu becomes a menu button, wide tables scroll
// inside their own focusable, named frame. Text spacing (1.4.12) overrides change none of that. Every route is
// walked there, every dialog, menu and panel of the axe spec's list (screens.ts) is opened there
// and measured, and the screens of a working day are used at 390 px (a phone).

test.use({ viewport: { width: 320, height: 640 } });

/** How far the document itself is wider than the window (0: nothing lost to the right). */
const documentOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * What the layout cuts off: an element reaching past the right edge of the page's content
 * (outside a region that scrolls sideways, where it can be scrolled to), or a button whose
 * words do not fit it. Each as its tag, test id or words.
 */
const cutOff = (page: Page) =>
  page.evaluate(() => {
    const frame = document.querySelector('[data-testid="content-card"]') ?? document.querySelector('main');
    if (!frame) return ['no main'];
    const edge = frame.getBoundingClientRect().right + 1;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p && p !== frame; p = p.parentElement) if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const found: string[] = [];
    for (const el of frame.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= edge || scrolls(el)) continue;
      // The outermost one says it: its children are past the edge with it.
      if (el.parentElement && el.parentElement.getBoundingClientRect().right > edge && !scrolls(el.parentElement)) continue;
      found.push(`${name(el)} ends at ${Math.round(box.right)} px, past ${Math.round(edge)}`);
    }
    for (const label of document.querySelectorAll('.mantine-Button-label')) {
      if (label.scrollWidth > label.clientWidth + 1 && label.getBoundingClientRect().width > 0) found.push(`button ${name(label)} is cut`);
    }
    return found;
  });

/**
 * What an open dialog, menu or list loses at this width: its body scrolling sideways, a
 * control or label reaching past either edge of the window, or text cut by a box that hides
 * its overflow. The labelled scroll frames of wide tables are left out: what is in them can be
 * scrolled to. Each as its tag, test id or words.
 */
const cutInside = (target: Locator) =>
  target.evaluate((root) => {
    const width = document.documentElement.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}"`;
    const inFrame = (el: Element) => !!el.closest('[role="group"][tabindex="0"][aria-label]');
    const found: string[] = [];
    const body = root.querySelector('.mantine-Modal-body') ?? root;
    if (body.scrollWidth > body.clientWidth + 1) found.push(`its body scrolls sideways by ${body.scrollWidth - body.clientWidth} px`);
    const controls = 'button, input:not([type="hidden"]), textarea, select, label, a[href], [role="menuitem"], [role="option"], [role="radio"], [role="checkbox"], [role="combobox"]';
    for (const el of root.querySelectorAll(controls)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || inFrame(el)) continue;
      if (box.left < -1 || box.right > width + 1) found.push(`${name(el)} spans ${Math.round(box.left)}–${Math.round(box.right)} px, outside 0–${width}`);
    }
    for (const el of root.querySelectorAll('*')) {
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || inFrame(el)) continue;
      const style = getComputedStyle(el);
      if (!/hidden|clip/.test(style.overflowX) && style.textOverflow !== 'ellipsis') continue;
      // Visually hidden words (said to screen readers only) are meant to be clipped.
      if (el.clientWidth <= 1 || el.clientHeight <= 1 || !(el.textContent ?? '').trim()) continue;
      if (el.scrollWidth > el.clientWidth + 1) found.push(`${name(el)} is cut: ${el.scrollWidth} px of words in ${el.clientWidth}`);
    }
    return found;
  });

/** The user-style sheet of WCAG 1.4.12's test: more line, paragraph, letter and word spacing. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;

test('at 320 px: a menu button, no sideways page scroll, tables scroll in their own region', async ({ page }) => {
  await signIn(page);
  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Reports' })).not.toBeInViewport();
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await nav.getByRole('link', { name: 'Participant Management' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Participant Management' })).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

  for (const path of ['/', '/participant/list', '/reports', '/reports/all-approvals', '/budget/list', '/settings/users']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await documentOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    // A table wider than the window scrolls in a region a keyboard user can reach and scroll.
    const scroller = page.getByRole('group').filter({ has: page.getByRole('table') }).last();
    if (await page.getByRole('table').count()) {
      await expect(scroller, path).toBeVisible();
      await expect(scroller).toHaveAttribute('tabindex', '0');
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth), `${path}: the table scrolls in its region`).toBe(true);
    }
    await page.addStyleTag({ content: TEXT_SPACING });
    expect(await documentOverflow(page), `${path} with text spacing`).toBeLessThanOrEqual(0);
  }
});

test('at 320 px the sign-on, security and approval-rule screens reflow and axe finds nothing', async ({ page }) => {
  await signIn(page);
  for (const path of ['/settings/sign-on', '/settings/security', '/settings/approval-rules']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await documentOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    expect(await findings(page, path)).toEqual([]);
  }
});

test('at 320 px every route reflows: no sideways page scroll, nothing cut, also with text spacing', async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const all = screens(await seed(request, baseURL!));
  const problems: string[] = [];
  const measure = async (path: string) => {
    await settled(page);
    const overflow = await documentOverflow(page);
    if (overflow > 0) problems.push(`${path}: the page scrolls sideways by ${overflow} px`);
    problems.push(...(await cutOff(page)).map((c) => `${path}: ${c}`));
  };
  for (const screen of all.filter((s) => s.signedOut)) {
    await go(page, screen.path);
    await screen.ready(page);
    await measure(screen.path);
  }
  await signIn(page);
  for (const screen of all.filter((s) => !s.signedOut)) {
    await go(page, screen.path);
    await screen.ready(page);
    await measure(screen.path);
  }
  // Text spacing on a few dense screens (a style sheet added stays until the next full load).
  for (const screen of all.filter((s) => /^\/\?|\/approve$|\/budget\/\d+|\/settings\/users/.test(s.path))) {
    await page.goto(screen.path);
    await screen.ready(page);
    await page.addStyleTag({ content: TEXT_SPACING });
    await measure(`${screen.path} with text spacing`);
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

test.describe('dialogs', () => {
  test.use({ actionTimeout: 10_000 });
  test('at 320 px every dialog, menu and panel reflows: nothing past the edges, nothing cut', async ({ page, request, baseURL }) => {
    test.setTimeout(240_000);
    const data = await seed(request, baseURL!);
    const problems: string[] = [];
    // One signed-in page opens them all, as the axe spec does.
    await signIn(page);
    for (const opening of openings(data, '320')) {
      await opening.open(page);
      await settled(page);
      await still(page);
      const overflow = await documentOverflow(page);
      if (overflow > 0) problems.push(`${opening.name}: the page scrolls sideways by ${overflow} px`);
      // A panel is part of the page: measured as the routes are, and for cut words.
      const found = [...(opening.close ? [] : await cutOff(page)), ...(await cutInside(opening.within(page)))];
      // Said as they are found: a later step that fails still leaves them in the report.
      for (const c of found) console.log(`${opening.name}: ${c}`);
      problems.push(...found.map((c) => `${opening.name}: ${c}`));
      await opening.close?.(page);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('approve: the decision folds above the request, closed, and opens by its button', async ({ page, request, baseURL }) => {
    const { submitted, w } = await seed(request, baseURL!);
    await signIn(page);
    await page.goto(`/payment-request/F3/${submitted.id}/approve`);
    const toggle = page.getByRole('button', { name: 'Approve or send back' });
    const approval = page.getByRole('region', { name: 'Approval', exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(approval).toBeHidden();
    // Closed, it takes one line: the request starts right under it.
    const heading = page.getByRole('heading', { level: 1, name: new RegExp(`F3 #${submitted.id}`) });
    await expect(heading).toBeInViewport();
    expect((await toggle.boundingBox())!.height).toBeLessThan(60);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(approval).toBeVisible();
    await pick(page, approval, 'Approval code');
    await pick(page, approval, 'Fund', w.fund.name);
    await pick(page, approval, 'Expense account', w.account.name);
    await expect(approval.getByText('No problems found').or(approval.getByLabel('I have read the warnings and approve anyway'))).toBeVisible();
    // Open, it is part of the page, not drawn over the request: scrolling down leaves it behind.
    const before = (await approval.boundingBox())!;
    await page.mouse.wheel(0, 600);
    await expect.poll(async () => (await approval.boundingBox())!.y).toBeLessThan(before.y - 100);
    const requestCard = page.getByRole('region', { name: new RegExp(`F3 #${submitted.id}`) });
    const [decision, document] = [(await approval.boundingBox())!, (await requestCard.boundingBox())!];
    expect(document.y).toBeGreaterThanOrEqual(decision.y + decision.height - 1);
    // Folded again, what was chosen stays.
    await toggle.click();
    await expect(approval).toBeHidden();
    await toggle.click();
    expect(await approval.getByRole('textbox', { name: 'Fund' }).inputValue()).toContain(w.fund.name);
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('home shows status and amount of each request; the batch button is whole', async ({ page, request, baseURL }) => {
    const { w, approved } = await seed(request, baseURL!);
    await signIn(page);
    await page.goto(`/?MentorProgramId=${w.program.id}&FormStatus=Approved`);
    const table = page.getByRole('table', { name: 'Payment requests' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `F5 #${approved.id}` }) });
    // Scrolled down to it (the totals and filters come first), nothing sideways.
    await row.scrollIntoViewIfNeeded();
    await expect(row.getByText('Approved', { exact: true })).toBeInViewport({ ratio: 1 });
    await expect(row.getByText('$25.00').first()).toBeInViewport({ ratio: 1 });
    await row.getByRole('checkbox', { name: `Select request ${approved.id}` }).check();
    const move = page.getByRole('button', { name: 'Move to ready for processing (1)' });
    await expect(move).toBeInViewport({ ratio: 1 });
    expect(await cutOff(page)).toEqual([]);
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
  });

  test("a budget's lines scroll sideways in their own named region, whole", async ({ page, request, baseURL }) => {
    const { year } = await seed(request, baseURL!);
    await signIn(page);
    await page.goto(`/budget/${year.id}/details`);
    await expect(page.getByTestId('budget-line').first()).toBeVisible();
    const region = page.getByRole('group', { name: 'Budget table' });
    await expect(region).toHaveAttribute('tabindex', '0');
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // No cell squeezed below its words: each amount stays on one line, each name is whole words.
    const squeezed = await page.getByTestId('budget-grid').evaluate((table) =>
      [...table.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    );
    expect(squeezed).toEqual([]);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect(await cutOff(page)).toEqual([]);
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
  });
});
