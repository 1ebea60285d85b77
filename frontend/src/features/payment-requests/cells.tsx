import { Box, VisuallyHidden } from '@mantine/core';
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

/** A paper clip: the lists' mark for receipts (its words are beside it, for screen readers). */
const Clip = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" style={{ flex: 'none' }}>
    <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
  </svg>
);

export const receiptWords = (n: number) => (n === 0 ? 'No receipts' : n === 1 ? '1 receipt' : `${n} receipts`);

/** The receipts column's header: the clip, named "Receipts". */
export const ReceiptsHeader = () => (
  <span title="Receipts" style={{ display: 'inline-flex' }}>
    <Clip />
    <VisuallyHidden>Receipts</VisuallyHidden>
  </span>
);

/** A row's receipts: the clip and how many; nothing seen (but said) when there are none. */
export const ReceiptsCell = ({ count }: { count: number }) =>
  count === 0 ? (
    <VisuallyHidden>{receiptWords(0)}</VisuallyHidden>
  ) : (
    <Box component="span" title={receiptWords(count)} data-testid="receipt-count" style={{ display: 'inline-flex', alignItems: 'center', gap: 2, whiteSpace: 'nowrap' }}>
      <Clip />
      <span aria-hidden="true">{count}</span>
      <VisuallyHidden>{receiptWords(count)}</VisuallyHidden>
    </Box>
  );
