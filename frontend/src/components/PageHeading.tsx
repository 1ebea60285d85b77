import { Title, type TitleProps } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { documentTitle, takePendingFocus } from './pageFocus';

/**
 * The one h1 of a page: it names the page, gives the browser tab its title, and receives the
 * focus after a navigation (tabIndex -1: reachable by script, not a Tab stop).
 */
export function PageHeading({ children, size = 'h3', ...props }: { children: string } & Omit<TitleProps, 'order' | 'children'>) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = documentTitle(children);
  }, [children]);
  useEffect(() => {
    if (ref.current) takePendingFocus(ref.current);
  }, []);
  return (
    <Title ref={ref} order={1} size={size} tabIndex={-1} {...props}>
      {children}
    </Title>
  );
}
