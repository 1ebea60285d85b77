import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

// Keyboard-only steps: the focus moves by Tab and Shift+Tab only, controls act on Enter, Space
// and the arrow keys. No click, no hover, no focus() from the test: what a keyboard user can
// reach, these reach.

/** What the focused element shows: its name for messages, and whether a focus ring is drawn. */
async function focusedState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    // A checkbox or radio draws its ring on its own box; a Mantine input on the input itself.
    const style = getComputedStyle(el);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    // 2.4.11: a focused control is not hidden under the sticky top bar.
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const hidden = !!hit?.closest('header') && !el.closest('header');
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
    return { ring, hidden, name: `${el.tagName.toLowerCase()} "${name}"` };
  });
}

/** Problems seen on the way (a stop without a focus ring, one hidden under the header). */
export const focusProblems: string[] = [];

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus; fails when it is not
 * reachable within `max` presses. Every stop passed must show a focus ring.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const state = await focusedState(page);
    if (state && !state.ring) focusProblems.push(`no focus ring on ${state.name}`);
    if (state?.hidden) focusProblems.push(`${state.name} hidden under the top bar`);
  }
  throw new Error(`${target} not reached by ${back ? 'Shift+Tab' : 'Tab'} in ${max} presses`);
}

/** Picks an option of the Mantine select (combobox) that has the focus, by typing and Enter. */
export async function chooseByTyping(page: Page, text?: string) {
  if (text) await page.keyboard.type(text);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Enter');
}
