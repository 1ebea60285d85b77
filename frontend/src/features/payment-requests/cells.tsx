import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { StatusBadge } from './StatusBadge';

// Table cells shared by the request lists: at 1280 px a squeezed column must wrap text,
// never cut an amount, a date or a status label.

export const Nowrap = ({ children }: { children: ReactNode }) => <span style={{ whiteSpace: 'nowrap' }}>{children}</span>;

/** The status badge at its full width (a squeezed cell would cut the label), in normal case:
 * capitals at a readable size did not fit the lists' status column. */
export const StatusCell = ({ status, size = 'sm' }: { status: string; size?: 'xs' | 'sm' }) => (
  <Box w="max-content">
    <StatusBadge status={status} size={size} caps={false} />
  </Box>
);
