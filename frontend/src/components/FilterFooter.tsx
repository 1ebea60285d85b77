import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Under a filter form: a note on how its values are read, and the button that clears them all. */
export function FilterFooter({ note, active, onClear }: { note: ReactNode; active: boolean; onClear: () => void }) {
  return (
    <Group justify="space-between" mt="xs">
      <Text size="xs" c="dimmed">
        {note}
      </Text>
      <Button variant="subtle" size="compact-sm" onClick={onClear} disabled={!active}>
        Clear filters
      </Button>
    </Group>
  );
}
