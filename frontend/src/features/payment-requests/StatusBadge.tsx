import { Badge } from '@mantine/core';

// Status names come from the API (wire names); only their colour and spacing are the UI's.
const COLORS: Record<string, string> = {
  Draft: 'gray',
  Submitted: 'blue',
  RevisionRequested: 'orange',
  Approved: 'green',
  ReadyForProcessing: 'teal',
  Processed: 'dark',
};

/** `RevisionRequested` -> `Revision requested`. */
export const statusLabel = (status: string) => {
  const words = status.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** `caps`: in capitals (the badge's usual look); lists set it off, so a readable size still fits. */
export function StatusBadge({ status, size, caps = true }: { status: string; size?: 'xs' | 'sm' | 'md'; caps?: boolean }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" size={size} tt={caps ? undefined : 'none'}>
      {statusLabel(status)}
    </Badge>
  );
}
