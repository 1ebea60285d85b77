import { Box, Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card: the building block of every page body. */
export function PageCard({ title, actions, children, flush = false }: { title: string; actions?: ReactNode; children?: ReactNode; flush?: boolean }) {
  // `flush`: no card of its own (a work list that needs every pixel of the window's height).
  const Frame = ({ children: inner }: { children: ReactNode }) =>
    flush ? (
      <Box component="section" aria-label={title}>
        {inner}
      </Box>
    ) : (
      <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
        {inner}
      </Card>
    );
  return (
    <Frame>
      <Stack gap={flush ? 'sm' : 'md'}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h3">
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Frame>
  );
}
