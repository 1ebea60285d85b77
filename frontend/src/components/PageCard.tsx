import { Box, Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeading } from './PageHeading';

/**
 * A titled card: the building block of every page body. A page's own card carries the page's
 * h1 (its name and the document's title); a card beside it (`level={2}`) an h2.
 */
export function PageCard({
  title,
  actions,
  children,
  flush = false,
  level = 1,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
  flush?: boolean;
  level?: 1 | 2;
}) {
  const body = (
    <Stack gap={flush ? 'sm' : 'md'}>
      <Group justify="space-between" wrap="wrap">
        {level === 1 ? (
          <PageHeading>{title}</PageHeading>
        ) : (
          <Title order={2} size="h3">
            {title}
          </Title>
        )}
        {actions}
      </Group>
      {children}
    </Stack>
  );
  // `flush`: no card of its own (a work list that needs every pixel of the window's height).
  // Both frames are written inline, never as a component declared in this function: a
  // component made per render is a new type each time, so React remounted the whole page body
  // on every render (popovers and inputs never settled: the quarantined e2e tests).
  return flush ? (
    <Box component="section" aria-label={title}>
      {body}
    </Box>
  ) : (
    // Clipped, not hidden: a hidden overflow makes a scroll container, and nothing inside (a
    // table's header, a save bar) could stick to the window.
    <Card withBorder radius="md" padding="lg" className="mp-page-card" component="section" aria-label={title} style={{ overflow: 'clip' }}>
      {body}
    </Card>
  );
}
