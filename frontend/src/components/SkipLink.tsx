import type { MouseEvent } from 'react';

export const MAIN_ID = 'main-content';

/**
 * "Skip to content": the first Tab stop of every page, shown only when focused. It moves the
 * focus to the page's heading (or the main region) past the header and the menu.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    (main.querySelector<HTMLElement>('h1[tabindex]') ?? main).focus();
  };
  return (
    <a className="mp-skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      Skip to content
    </a>
  );
}
