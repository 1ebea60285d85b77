import { Box, Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card: the building block of every page body. */
export function PageCard({ title, actions, children, flush = false }: { title: string; actions?: ReactNode; children?: ReactNode; flush?: boolean }) {
  const body = (
    <Stack gap={flush ? 'sm' : 'md'}>
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h3">
          {title}
        </Title>
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
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      {body}
    </Card>
  );
}
