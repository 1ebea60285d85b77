import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// The WCAG 2.0, 2.1 and 2.2 level A and AA rules of axe-core: the machine-checkable part of
// the conformance target. axe-core is pinned in package-lock.json; an upgrade that adds a rule
// shows up here as a failing screen, not silently.
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

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

/** axe's findings on the page now (the whole document, dialogs and menus included). */
export async function findings(page: Page, screen: string): Promise<Finding[]> {
  // Nothing still fading or sliding in: a dialog or menu caught half-faded has its text blended
  // into the page behind it, and axe measures the blend, so its contrast findings would depend on
  // the machine's speed. Endless animations (a spinner) are left to `settled`.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  // Violations only: collecting every passing node doubles the time of each run.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}` : ''}`),
  }));
}
