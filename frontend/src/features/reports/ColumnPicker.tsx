import { Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import type { ReportColumn } from './api';
import { toggleColumn } from './participantsReport';

/** Which columns the table shows and the exports carry; the page keeps the choice. */
export function ColumnPicker({
  columns,
  chosen,
  onChange,
  onReset,
  title = 'Columns in the table and the exports',
}: {
  columns: ReportColumn[];
  chosen: string[];
  onChange: (keys: string[]) => void;
  onReset: () => void;
  /** What the choice applies to. */
  title?: string;
}) {
  const order = columns.map((c) => c.key);
  return (
    <Popover position="bottom-end" withinPortal trapFocus shadow="md" width={260}>
      <Popover.Target>
        <Button variant="default">{`Columns (${chosen.length})`}</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={600} id="column-picker-title">
            {title}
          </Text>
          <ScrollArea.Autosize mah={320}>
            <Stack gap={6} role="group" aria-labelledby="column-picker-title">
              {columns.map((c) => (
                <Checkbox
                  key={c.key}
                  label={c.header}
                  checked={chosen.includes(c.key)}
                  disabled={chosen.length === 1 && chosen.includes(c.key)}
                  onChange={() => onChange(toggleColumn(chosen, c.key, order))}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button size="compact-sm" variant="subtle" onClick={onReset}>
              Default columns
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
