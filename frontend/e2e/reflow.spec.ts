import type { Page } from '@playwright/test';
import { findings } from './axe';
import { expect, signIn, test } from './fixtures';

// Reflow (WCAG 1.4.10) at 320 x 640 CSS px, the width of a 1280 px window at 400 % zoom: the page
// never scrolls sideways as a whole, the side menu becomes a menu button, wide tables scroll
// inside their own region. Text spacing (1.4.12) overrides change none of that.

test.use({ viewport: { width: 320, height: 640 } });

/** How far the document itself is wider than the window (0: nothing lost to the right). */
const documentOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

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
    const scroller = page.getByRole('region').filter({ has: page.getByRole('table') }).last();
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
