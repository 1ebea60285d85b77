import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { focusPageHeading, keepFocusOnPage } from '../components/pageFocus';

/**
 * Above every layout, signed in or not: after a move to another page (not on the first one),
 * signing in included, the focus goes to the new page's heading; a focus dropped to the page's
 * body goes there too. One place for every page.
 */
export function AppFrame() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    focusPageHeading();
  }, [pathname]);
  useEffect(() => keepFocusOnPage(), []);
  return <Outlet />;
}
