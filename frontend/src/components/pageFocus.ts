// After a navigation inside the app, keyboard and screen-reader users start at the new page's
// heading, not on the link they used (which may still be on screen). A page's heading can
// appear after its data loads, so the layout asks once and the heading takes it when it mounts.

const HEADING = 'main h1';
/** A heading that appears this long after the navigation is part of something else. */
const WAIT_MS = 10_000;

let pendingUntil = 0;
let focusedAtNavigation: Element | null = null;

/** Called by the layout when the address's path changes. */
export function focusPageHeading() {
  const heading = document.querySelector<HTMLElement>(HEADING);
  if (heading) {
    pendingUntil = 0;
    heading.focus();
  } else {
    pendingUntil = Date.now() + WAIT_MS;
    focusedAtNavigation = document.activeElement;
  }
}

/**
 * Called by a page heading when it mounts: takes the focus if a navigation asked for it and
 * the person has not moved the focus meanwhile (a field they already type in keeps it).
 */
export function takePendingFocus(heading: HTMLElement) {
  if (Date.now() > pendingUntil) return;
  pendingUntil = 0;
  const active = document.activeElement;
  if (active && active !== document.body && active !== focusedAtNavigation && document.contains(active)) return;
  heading.focus();
}

/** The document's title for a page. */
export const documentTitle = (page: string) => `${page} · MentorPay`;
