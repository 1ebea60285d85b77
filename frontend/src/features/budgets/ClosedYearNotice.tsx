import { Alert, Text } from '@mantine/core';
import type { FiscalYear } from '../../api/wire';
import { formatDateTime } from '../../components/dates';

/** Who closed the year, when and why (nothing when it is open). */
export function ClosedYearNotice({ year }: { year: FiscalYear }) {
  if (!year.closedAt) return null;
  return (
    <Alert color="gray" title={`${year.name} is closed`} data-testid="closed-year">
      <Text size="sm">
        Closed on {formatDateTime(year.closedAt)}
        {year.closedBy ? ` by ${year.closedBy.fullName}` : ''}: {year.closeReason}
      </Text>
      <Text size="sm" c="dimmed">
        Nothing more can be charged to it; its budget is read-only.
      </Text>
    </Alert>
  );
}

/** The one-line form, for lists. */
export function closedText(year: FiscalYear): string {
  if (!year.closedAt) return '';
  return `Closed ${formatDateTime(year.closedAt)}${year.closedBy ? ` by ${year.closedBy.fullName}` : ''}: ${year.closeReason ?? ''}`;
}
