import { Badge } from '@mantine/core';

// Colours only; the values themselves come from GET /participants/statuses.
const COLORS: Record<string, string> = { Active: 'green', Pending: 'yellow', Inactive: 'gray' };

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={COLORS[status] ?? 'gray'}>
      {status}
    </Badge>
  );
}
