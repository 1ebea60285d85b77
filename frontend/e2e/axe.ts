import { AxeBuilder } from '@axe-core/playwright';
import type * as AxeCore from 'axe-core';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// Every WCAG 2.0, 2.1 and 2.2 level A and AA rule of axe-core (the machine-checkable part of the
// conformance target) and its best practices (landmarks, heading order, unique names…). axe-core
// is pinned in package-lock.json; an upgrade that adds a rule shows up here as a failing screen,
// not silently. 'wcag22a' names no rule in this axe-core (WCAG 2.2's new level A criteria have no
// automatic check); it is listed so a version that adds one runs it. `axeWcagTags` below lets
// accessibility.spec.ts fail when axe-core knows a 2.x A or AA tag this list lacks.
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

// axe-core is a CommonJS bundle without named exports: required, as Node runs this file as a module.
const axe: typeof AxeCore = createRequire(import.meta.url)('axe-core');

/** The WCAG 2.x level A and AA tags the installed axe-core's rules carry. */
export function axeWcagTags(): string[] {
  const tags = new Set(axe.getRules().flatMap((r) => r.tags));
  return [...tags].filter((t) => /^wcag2\d?a{1,2}$/.test(t)).sort();
}

/** One violation, short enough to read in a test report: rule, impact, where. */
export interface Finding {
  screen: string;
  rule: string;
  impact: string;
  targets: string[];
}

/** The page as it stands: no spinner, no dimmed table, nothing still arriving. */
export async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('progressbar').or(page.locator('.mantine-Loader-root'))).toHaveCount(0);
}

/**
 * Nothing still fading or sliding in: a dialog or menu caught half-faded has its text blended
 * into the page behind it (axe would measure the blend), one sliding in is not where it will
 * stand. Endless animations (a spinner) are left to `settled`.
 */
export async function still(page: Page) {
  // A fade starts a frame or two after its element appears (before that it has no animation to
  // wait for): the open menus, lists and dialogs must also stand at full opacity.
  await page.waitForFunction(
    () =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity) &&
      [...document.querySelectorAll('[role="menu"], [role="listbox"], [role="dialog"]')].every(
        (el) => el.getClientRects().length === 0 || getComputedStyle(el).opacity === '1',
      ),
    undefined,
    { timeout: 10_000 },
  );
}

/** axe's findings on the page now (the whole document, dialogs and menus included). */
export async function findings(page: Page, screen: string): Promise<Finding[]> {
  // The contrast findings would otherwise depend on the machine's speed.
  await still(page);
  // Violations only: collecting every passing node doubles the time of each run.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}` : ''}`),
  }));
}
