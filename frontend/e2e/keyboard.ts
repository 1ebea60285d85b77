import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

// Keyboard-only steps: the focus moves by Tab and Shift+Tab only, controls act on Enter, Space
// and the arrow keys. No click, no hover, no focus() from the test: what a keyboard user can
// reach, these reach.

/**
 * The focus after a key press, seen from `target`: whether it has reached it, whether the
 * focused element draws a ring, whether something fixed or sticky covers it. One round trip.
 */
function focusState(target: Element) {
  const el = document.activeElement as HTMLElement | null;
  const reached = !!el && (el === target || target.contains(el));
  if (!el || el === document.body) return { reached, ring: true, hidden: false, name: '', by: '' };
  // A multiselect's typing field lies inside its box, which carries the ring.
  const style = getComputedStyle(el.closest('div.mantine-Input-input') ?? el);
  // A date field's calendar button is the browser's own part: the field no longer matches
  // :focus, and the browser rings the button itself.
  const browserPart = el instanceof HTMLInputElement && el.type === 'date' && !el.matches(':focus');
  const ring = browserPart || (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2);
  // 2.4.11: what is drawn at the focused element's centre is itself or inside it, not a top
  // bar, footer or save bar (anything fixed or sticky) laid over it.
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  let cover: Element | null = hit && !el.contains(hit) && !hit.contains(el) ? hit : null;
  while (cover && !['fixed', 'sticky'].includes(getComputedStyle(cover).position)) cover = cover.parentElement;
  const hidden = !!cover && !cover.contains(el);
  const label = (e: Element) => e.getAttribute('aria-label') ?? e.textContent?.trim().slice(0, 40) ?? '';
  const name = `${el.tagName.toLowerCase()} "${label(el)}"`;
  const by = hidden ? ` by ${cover!.tagName.toLowerCase()}.${[...cover!.classList].join('.')} "${label(cover!)}"` : '';
  return { reached, ring, hidden, name, by };
}

/** Problems seen on the way (a stop without a focus ring, one hidden under a fixed bar). */
export const focusProblems: string[] = [];

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus; fails when it is not
 * reachable within `max` presses. Every stop passed must show a focus ring.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  if ((await target.evaluate(focusState)).reached) return;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const state = await target.evaluate(focusState);
    if (state.name && !state.ring) focusProblems.push(`no focus ring on ${state.name}`);
    if (state.hidden) focusProblems.push(`${state.name} hidden under a fixed or sticky bar${state.by}`);
    if (state.reached) return;
  }
  throw new Error(`${target} not reached by ${back ? 'Shift+Tab' : 'Tab'} in ${max} presses`);
}

/**
 * Picks the option showing `option` in the Mantine select that has the focus: types to narrow
 * a searchable one, opens the list with ArrowDown, moves down to the option, takes it with Enter.
 */
export async function chooseOption(page: Page, option: string, { type = false } = {}) {
  if (type) {
    // Over the current choice, as a person selects the text and types.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(option);
  }
  const active = page.locator('[data-combobox-selected]');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  // Each look waits a moment only: an arrow pressed before the options came selects nothing,
  // and the next press does.
  const selected = () => active.innerText({ timeout: 500 }).catch(() => '');
  for (let i = 0; i < 50 && !(await selected()).includes(option); i++) await page.keyboard.press('ArrowDown');
  await expect(active).toContainText(option);
  await page.keyboard.press('Enter');
}
