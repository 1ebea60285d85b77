import { Stack, Text } from '@mantine/core';

/** A filtered list's empty state: what is missing, and with filters set, how to see more. */
export function EmptyList({ filtered, none, noMatch }: { filtered: boolean; none: string; noMatch: string }) {
  return (
    <Stack gap={4} align="center">
      <Text fw={500}>{filtered ? noMatch : none}</Text>
      {filtered && (
        <Text size="sm" c="dimmed">
          Change or clear the filters to see more.
        </Text>
      )}
    </Stack>
  );
}
