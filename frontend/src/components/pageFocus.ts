// After a navigation inside the app (and after signing in), keyboard and screen-reader users
// start at the new page's heading, not on the link they used (which may still be on screen). A
// page's heading can appear after its data loads, so the app's frame asks once and the heading
// takes it when it mounts. A focus dropped to the page's body is brought back to the heading.

const HEADING = 'main h1';
/** A heading that appears this long after the navigation is part of something else. */
const WAIT_MS = 10_000;

let pendingUntil = 0;
let focusedAtNavigation: Element | null = null;

/** A field the page itself put the focus in (the sign-in form's E-mail) keeps it. */
const ownField = (el: Element | null) => !!el && el.matches('main input, main textarea, main select');

/** Called by the app's frame when the address's path changes (a sign-in included). */
export function focusPageHeading() {
  if (ownField(document.activeElement)) return;
  const heading = document.querySelector<HTMLElement>(HEADING);
  // A heading shown while the page loads may be replaced by the loaded page's: the wait stays
  // open for that one too (it takes the focus only if nothing else has it).
  pendingUntil = Date.now() + WAIT_MS;
  focusedAtNavigation = heading ? null : document.activeElement;
  heading?.focus();
}

/**
 * Called by a page heading when it mounts: takes the focus if a navigation asked for it and
 * the person has not moved the focus meanwhile (a field they already type in keeps it).
 */
export function takePendingFocus(heading: HTMLElement) {
  if (Date.now() > pendingUntil) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== focusedAtNavigation && document.contains(active)) return;
  focusedAtNavigation = null;
  heading.focus();
}

/**
 * How long after the page changes a lost focus is looked for. A closing dialog has given it
 * back by then: Mantine's within 10 ms, a `MountedModal` as it leaves.
 */
const RESCUE_AFTER_MS = 50;

/**
 * Keeps the focus on the page: when the element that had it goes away (a dialog's opener that
 * left with the action, a button replaced by the result, a heading replaced by the loaded
 * page's) or is disabled, the browser drops it to the page's body, where a keyboard user
 * starts over at the top. It goes to the page's heading instead. Installed once, by the app's
 * frame; returns its removal.
 */
export function keepFocusOnPage(doc: Document = document): () => void {
  let last: Element | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const onFocusIn = (event: FocusEvent) => {
    last = event.target instanceof Element ? event.target : null;
  };
  const check = () => {
    timer = null;
    const active = doc.activeElement;
    if (active && active !== doc.body) return;
    const gone = !!last && (!last.isConnected || last.matches(':disabled'));
    if (!gone) return;
    const target = doc.querySelector<HTMLElement>(HEADING) ?? doc.querySelector<HTMLElement>('main[tabindex]');
    target?.focus();
  };
  const observer = new MutationObserver(() => {
    timer ??= setTimeout(check, RESCUE_AFTER_MS);
  });
  doc.addEventListener('focusin', onFocusIn);
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    doc.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
    if (timer) clearTimeout(timer);
  };
}

/** The document's title for a page. */
export const documentTitle = (page: string) => `${page} · MentorPay`;
